import { PaneLink } from '../app/PaneView.tsx';

export function NotFound({ path }: { path: string }) {
  return (
    <div className="page">
      <h1>Nothing at {path}</h1>
      <p>
        This address does not lead anywhere in the console.{' '}
        <PaneLink to="/servers">Go to the server list</PaneLink>.
      </p>
    </div>
  );
}
