// Bench page: `?variant=ours|plain|remote&n=N[&latency=ms]`. Entities are generated before anything is measured.
import { createRoot } from 'react-dom/client';
import '../../src/web/app/theme.css';
import { generateEntities } from '../lib/entities.ts';
import { mountOurs } from './ours.tsx';
import { mountPlain } from './plain.tsx';

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? '1000');
const data = generateEntities(n);
const root = createRoot(document.getElementById('root')!);
if (params.get('variant') === 'plain') mountPlain(root, data);
else mountOurs(root, data, params.get('variant') === 'remote' ? Number(params.get('latency') ?? '20') : null);
