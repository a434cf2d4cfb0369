// Notebooks: list, create, upload an .ipynb, delete.
import { api, enc } from './api.js';
import { h, notice, fail } from './dom.js';

function openNotebook(id) {
  location.hash = `#/nb/${enc(id)}`;
}

function createForm() {
  const input = h('input', { id: 'new-id', name: 'id', pattern: '[A-Za-z0-9][A-Za-z0-9_.\\-]{0,127}',
    placeholder: 'e.g. analysis-1', 'aria-describedby': 'new-id-help' });
  const form = h('form', { class: 'row', 'aria-labelledby': 'new-title' },
    h('h2', { id: 'new-title', class: 'inline-title' }, 'New notebook'),
    h('label', { for: 'new-id' }, 'Notebook name'), input,
    h('span', { id: 'new-id-help', class: 'help' }, 'letters, digits, _ . - (empty: a generated name)'),
    h('button', { type: 'submit' }, 'Create notebook'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const created = await api('/api/notebooks', { method: 'POST',
        body: input.value.trim() ? { id: input.value.trim() } : {} });
      openNotebook(created.id);
    } catch (err) { fail(err); }
  });
  return form;
}

function uploadForm() {
  const input = h('input', { id: 'upload-file', type: 'file', accept: '.ipynb,application/x-ipynb+json' });
  input.addEventListener('change', async () => {
    const file = input.files[0];
    if (!file) return;
    const body = new FormData();
    body.append('file', file);
    try {
      const created = await api('/api/notebooks/upload', { method: 'POST', body });
      notice(`Uploaded ${created.id}.`);
      openNotebook(created.id);
    } catch (err) { fail(err); }
  });
  return h('div', { class: 'row' }, h('label', { for: 'upload-file' }, 'Upload an .ipynb file'), input);
}

function row(item, refresh) {
  const id = item.id ?? item;
  const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete notebook ${id}` }, 'Delete');
  remove.addEventListener('click', async () => {
    if (!window.confirm(`Delete notebook ${id}? Its file is removed.`)) return;
    try {
      await api(`/api/notebooks/${enc(id)}`, { method: 'DELETE' });
      notice(`Deleted ${id}.`);
      refresh();
    } catch (err) { fail(err); }
  });
  return h('li', { class: 'notebook-row' }, h('a', { href: `#/nb/${enc(id)}` }, id), remove);
}

export async function showNotebookList(main) {
  const list = h('ul', { class: 'notebook-list', 'aria-label': 'Notebooks' });
  const refresh = async () => {
    const { notebooks } = await api('/api/notebooks');
    list.replaceChildren(...(notebooks.length ? notebooks.map((n) => row(n, refresh))
      : [h('li', {}, 'No notebooks yet.')]));
  };
  await refresh();
  main.replaceChildren(h('h1', {}, 'Notebooks'), createForm(), uploadForm(), list);
  return {};
}
