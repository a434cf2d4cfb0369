// The page's entry: login, then hash routes (#/, #/nb/<id>, #/learning).
import { checkToken, token, ApiError } from './api.js';
import { h, notice } from './dom.js';
import { showNotebookList } from './notebook_list.js';
import { showNotebook } from './notebook_view.js';
import { showLearning } from './learning_view.js';

const main = document.getElementById('main');
const logout = document.getElementById('logout');
let current = null; // the view shown, with an optional close()

function showLogin(problem) {
  const input = h('input', { id: 'token', name: 'token', type: 'password', required: true,
    autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'token-help' });
  const error = h('p', { id: 'login-error', class: 'error-text', role: 'alert' }, problem ?? '');
  const form = h('form', { class: 'login', method: 'post', action: '#', 'aria-labelledby': 'login-title' },
    h('h1', { id: 'login-title' }, 'Log in to nbcritic'),
    h('label', { for: 'token' }, 'Access token'), input,
    h('p', { id: 'token-help', class: 'help' },
      'The token nbcritic serve printed when it started (or NBCRITIC_TOKEN). It is kept in this ',
      'browser tab only, and sent in the Authorization header.'),
    error,
    h('button', { type: 'submit' }, 'Log in'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = input.value.trim();
    try {
      await checkToken(value);
    } catch (err) {
      error.textContent = err instanceof ApiError && err.status === 401
        ? `The service refused this token (${err.message}).` : `Could not reach the service: ${err.message}`;
      input.focus();
      return;
    }
    token.set(value);
    route();
  });
  main.replaceChildren(form);
  logout.hidden = true;
  input.focus();
}

async function route() {
  current?.close?.();
  current = null;
  if (!token.get()) return showLogin();
  logout.hidden = false;
  const hash = decodeURIComponent(location.hash.slice(1) || '/');
  const notebook = hash.match(/^\/nb\/(.+)$/);
  try {
    if (notebook) current = await showNotebook(main, notebook[1]);
    else if (hash === '/learning') current = await showLearning(main);
    else current = await showNotebookList(main);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return;
    main.replaceChildren(h('p', { class: 'error-text', role: 'alert' }, err.message));
  }
}

window.addEventListener('nbcritic:unauthorized', () => {
  token.clear();
  current?.close?.();
  current = null;
  showLogin('The service refused the token: log in again.');
});
window.addEventListener('hashchange', route);
logout.addEventListener('click', () => {
  token.clear();
  notice('Logged out.');
  route();
});
route();
