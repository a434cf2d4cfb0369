// A notebook: its cells, run one / run all / interrupt / restart, add and move cells,
// download the .ipynb. Executions run as execution resources whose events stream live;
// a page opened (or reloaded) while one runs follows it from its first event.
import { api, enc, followEvents } from './api.js';
import { h, fail, notice } from './dom.js';
import { CellView } from './cell_view.js';

class NotebookView {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    this.cells = [];
    this.following = new Map(); // execution id -> AbortController
    this.list = h('div', { class: 'cells' });
    this.kernel = h('span', { class: 'kernel-state', role: 'status' });
  }

  indexOf(view) { return this.cells.indexOf(view); }
  cellView(id) { return this.cells.find((c) => c.id === id); }

  async load() {
    this.critic = await api('/api/critic'); // is there a code generator ("Let it fix")?
    const body = await api(`/api/notebooks/${enc(this.id)}`);
    this.render(body.content.cells);
    this.showKernel(body.kernel);
    if (!this.cells.length) await this.addCell('code');
    const { executions } = await api(`/api/notebooks/${enc(this.id)}/executions?limit=20`);
    for (const execution of executions.filter((e) => e.state !== 'done')) this.follow(execution.id);
  }

  render(cells) {
    this.cells = cells.map((cell) => new CellView(this, cell));
    this.list.replaceChildren(...this.cells.map((c) => c.el));
    this.cells.forEach((c) => c.relabel());
  }

  showKernel(kernel) {
    this.kernel.textContent = kernel ? `kernel ${kernel.busy ? 'busy' : 'idle'}` : 'no kernel yet';
  }

  toolbar() {
    const button = (text, onclick) => h('button', { type: 'button', onclick }, text);
    return h('div', { class: 'notebook-toolbar', role: 'group', 'aria-label': 'Notebook actions' },
      button('Run all', () => this.runAll()),
      button('Interrupt', () => this.kernelAction('interrupt')),
      button('Restart kernel', () => this.kernelAction('restart')),
      button('Add code cell', () => this.addCell('code')),
      button('Add Markdown cell', () => this.addCell('markdown')),
      button('Download .ipynb', () => this.download()),
      this.kernel);
  }

  async start(path, body) {
    const accepted = await api(path, { method: 'POST', body, headers: { Prefer: 'respond-async' } });
    return this.follow(accepted.id);
  }

  async follow(executionId) {
    if (this.following.has(executionId)) return;
    const control = new AbortController();
    this.following.set(executionId, control);
    const pending = [];
    try {
      await followEvents(executionId, (event) => {
        const view = event.data.cell_id && this.cellView(event.data.cell_id);
        if (event.type === 'final' && view) pending.push(view.finished());
        else if (view) view.event(event.type, event.data);
        if (event.type === 'done' && event.data.reason) notice(event.data.reason);
      }, { signal: control.signal });
      await Promise.all(pending);
    } catch (err) { fail(err); } finally {
      this.following.delete(executionId);
      this.cells.filter((c) => c.running).forEach((c) => c.finished().catch(fail));
      this.refreshKernel();
    }
  }

  // `fix`: the blocked code is reviewed again and rewritten by the generator, not overridden.
  async runCell(view, { accepted = false, fix = false } = {}) {
    await view.flush();
    if (!accepted && !fix && view.unchangedSinceBlocked()) {
      // an unchanged re-run would override the critic: ask for a reason instead
      notice('This code was blocked by the critic: change it, or accept the finding with a reason.');
      view.focusAccept?.();
      return undefined;
    }
    view.setStatus('queued');
    const body = fix ? { rerun_overrides: false, auto_fix: true } : {};
    return this.start(`/api/notebooks/${enc(this.id)}/cells/${enc(view.id)}/execute`, body)
      .catch(fail);
  }

  async runAll() {
    await Promise.all(this.cells.map((c) => c.flush()));
    this.cells.filter((c) => c.cell.cell_type === 'code').forEach((c) => c.setStatus('queued'));
    return this.start(`/api/notebooks/${enc(this.id)}/run`, { stop_on_error: true }).catch(fail);
  }

  async kernelAction(action) {
    try {
      const result = await api(`/api/notebooks/${enc(this.id)}/kernel/${action}`, { method: 'POST' });
      notice(action === 'restart' ? 'Kernel restarted.' : 'Interrupt sent.');
      if (result?.kernel) this.showKernel(result.kernel);
    } catch (err) { fail(err); }
  }

  async refreshKernel() {
    try {
      this.showKernel((await api(`/api/notebooks/${enc(this.id)}/kernel`)).kernel);
    } catch { /* shown on the next action */ }
  }

  async addCell(cellType, after) {
    const position = after ? this.indexOf(after) + 1 : this.cells.length;
    try {
      const cell = await api(`/api/notebooks/${enc(this.id)}/cells`, { method: 'POST',
        body: { cell_type: cellType, source: '', position } });
      const view = new CellView(this, cell);
      this.cells.splice(position, 0, view);
      this.list.insertBefore(view.el, this.list.children[position] ?? null);
      this.cells.forEach((c) => c.relabel());
      if (cellType === 'markdown') view.editMarkdown();
      else view.editor.focus();
    } catch (err) { fail(err); }
  }

  async move(view, step) {
    const position = this.indexOf(view) + step;
    if (position < 0 || position >= this.cells.length) return;
    try {
      await view.flush();
      await api(`/api/notebooks/${enc(this.id)}/cells/${enc(view.id)}/move`, { method: 'POST', body: { position } });
      this.cells.splice(this.indexOf(view), 1);
      this.cells.splice(position, 0, view);
      this.list.replaceChildren(...this.cells.map((c) => c.el));
      this.cells.forEach((c) => c.relabel());
      view.el.querySelector('.cell-toolbar button')?.focus();
    } catch (err) { fail(err); }
  }

  async remove(view) {
    if (!window.confirm(`Delete ${view.label}?`)) return;
    try {
      await api(`/api/notebooks/${enc(this.id)}/cells/${enc(view.id)}`, { method: 'DELETE' });
      this.cells.splice(this.indexOf(view), 1);
      view.el.remove();
      view.editor.destroy();
      this.cells.forEach((c) => c.relabel());
    } catch (err) { fail(err); }
  }

  async download() {
    try {
      await Promise.all(this.cells.map((c) => c.flush()));
      const res = await api(`/api/notebooks/${enc(this.id)}/ipynb`, { raw: true });
      const url = URL.createObjectURL(await res.blob());
      const link = h('a', { href: url, download: `${this.id}.ipynb`, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (err) { fail(err); }
  }

  close() {
    for (const control of this.following.values()) control.abort();
    for (const cell of this.cells) cell.flush();
  }
}

export async function showNotebook(main, id) {
  const view = new NotebookView(main, id);
  main.replaceChildren(h('h1', {}, `Notebook ${id}`), view.toolbar(), view.list);
  await view.load();
  return view;
}
