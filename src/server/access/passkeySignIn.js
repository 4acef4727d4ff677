// The sign-in pages' passkey button: asks the server for a challenge, has the browser's passkey
// answer it (SimpleWebAuthn's browser helper, served beside this file), and follows the answer
// back to the console. Served by the API itself (src/server/access/signInPages.ts).
/* global SimpleWebAuthnBrowser */

for (const button of document.querySelectorAll('[data-passkey-flow]')) {
  button.addEventListener('click', async () => {
    const flowId = button.getAttribute('data-passkey-flow');
    const said = document.getElementById('passkey-error');
    said.textContent = '';
    const post = (path, body) =>
      fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ flow_id: flowId, ...body }),
      });
    try {
      const options = await post('/v4/login/passkey/options', {});
      if (!options.ok) throw new Error((await options.json()).message);
      const response = await SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: await options.json() });
      const answer = await post('/v4/login/passkey', { response });
      const body = await answer.json();
      if (!answer.ok) throw new Error(body.message);
      window.location.assign(body.redirect);
    } catch (e) {
      said.textContent = e instanceof Error && e.message ? e.message : 'The passkey did not sign you in.';
    }
  });
}
