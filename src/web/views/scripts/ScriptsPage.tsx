// SKELETON (helper scripts-ui replaces this file): /scripts and /scripts/workshop.
export function ScriptsPage() {
  return <h1>Scripts</h1>;
}
