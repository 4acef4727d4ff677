// A bench's call of the API server it started (bench/api/server.mjs), as its owner: the answer's
// JSON, or an error naming the call.

export async function api(server, method, path, body) {
  const res = await fetch(`${server.url}/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
