// SKELETON (helper scripts-ui replaces this file): /scripts/workshop/{scriptId}.
export function WorkshopPreview() {
  return <h1>Workshop</h1>;
}
