// The Survivors, Tribes and Dinos sections (SPEC §2 /characters, /tribes, /dinos): the kind's list
// across every server, or inside one server or group chosen in "Where".

import { useQuery } from '@tanstack/react-query';
import { type ComponentType, useState } from 'react';
import type { ListParams } from '../../api/sentinel.ts';
import { useApp } from '../../app/deps.tsx';
import { useServices } from '../../store/services.ts';
import { DinoList, SurvivorList, TribeList } from './WorldList.tsx';

function WhereSelect({ value, onChange }: { value: string; onChange(v: string): void }) {
  const { api, index } = useApp();
  const servers = useServices(api, index).data ?? [];
  const groups = useQuery({
    queryKey: ['groups', 'where'],
    queryFn: () => api.groups.list({ pageSize: 250 }),
  });
  return (
    <label className="world-where">
      Where{' '}
      <select className="ui-input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All servers</option>
        <optgroup label="Servers">
          {servers.map((s) => (
            <option key={s.serviceId} value={`serviceId:${s.serviceId}`}>
              {s.displayName}
            </option>
          ))}
        </optgroup>
        <optgroup label="Groups">
          {(groups.data?.results ?? []).map((g) => (
            <option key={g.groupId} value={`groupId:${g.groupId}`}>
              {g.name}
            </option>
          ))}
        </optgroup>
      </select>
    </label>
  );
}

function section(title: string, name: string, List: ComponentType<{ filter: ListParams; name: string }>) {
  return function WorldSection() {
    const [where, setWhere] = useState('');
    const [key, id] = where.split(':');
    return (
      <div className="page page-list">
        <header className="world-header">
          <h1 className="page-title">{title}</h1>
          <WhereSelect value={where} onChange={setWhere} />
        </header>
        <List filter={key && id ? { [key]: id } : {}} name={name} />
      </div>
    );
  };
}

export const SurvivorSection = section('Survivors', 'survivors', SurvivorList);
export const TribeSection = section('Tribes', 'tribes', TribeList);
export const DinoSection = section('Dinos', 'dinos', DinoList);
