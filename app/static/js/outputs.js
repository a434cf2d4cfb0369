// Cell outputs as Jupyter shows them: streams and tracebacks with ANSI colours (ansi_up),
// HTML (sanitised by DOMPurify: no script runs), images, Markdown (marked), plain text.
// Live events follow nbclient's rules: a stream chunk joins the previous chunk of the same
// stream, clear_output(wait=True) waits for the next output.
import { AnsiUp } from 'ansi_up';
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { h } from './dom.js';

const ansi = new AnsiUp();
ansi.use_classes = true; // colours from the stylesheet (contrast checked there)

const IMAGES = ['image/png', 'image/jpeg', 'image/gif'];
const ORDER = ['text/html', 'image/svg+xml', ...IMAGES, 'text/markdown', 'text/latex', 'text/plain'];

export function renderMarkdown(text) {
  const el = h('div', { class: 'markdown' });
  el.innerHTML = DOMPurify.sanitize(marked.parse(text ?? ''));
  return el;
}

function joined(text) {
  return Array.isArray(text) ? text.join('') : (text ?? '');
}

function ansiBlock(text, cls) {
  const pre = h('pre', { class: cls });
  pre.innerHTML = ansi.ansi_to_html(text); // ansi_up escapes HTML
  return pre;
}

function bundle(data, metadata) {
  const type = ORDER.find((mime) => mime in data);
  const value = data[type];
  const alt = joined(data['text/plain']) || 'output image';
  if (type === 'text/html' || type === 'image/svg+xml') {
    const el = h('div', { class: 'html-output' });
    el.innerHTML = DOMPurify.sanitize(joined(value));
    return el;
  }
  if (IMAGES.includes(type)) {
    const size = metadata?.[type] ?? {};
    return h('img', { src: `data:${type};base64,${joined(value).replace(/\n/g, '')}`, alt,
      width: size.width, height: size.height });
  }
  if (type === 'text/markdown') return renderMarkdown(joined(value));
  if (type) return ansiBlock(joined(value), 'text-output');
  return h('pre', { class: 'text-output' }, `[output of type ${Object.keys(data).join(', ')}]`);
}

export function renderOutput(output) {
  switch (output.output_type) {
    case 'stream':
      return ansiBlock(joined(output.text), `stream stream-${output.name}`);
    case 'error':
      return h('div', { class: 'error-output', role: 'group', 'aria-label': `error ${output.ename}` },
        ansiBlock((output.traceback ?? []).join('\n') || `${output.ename}: ${output.evalue}`, 'traceback'));
    case 'execute_result':
      return h('div', { class: 'result' },
        h('span', { class: 'prompt' }, `Out[${output.execution_count ?? ' '}]:`),
        bundle(output.data ?? {}, output.metadata));
    default:
      return bundle(output.data ?? {}, output.metadata);
  }
}

export class OutputArea {
  constructor(el) {
    this.el = el;
    this.outputs = [];
    this.nodes = []; // the rendered element of each output
    this.changed = new Set(); // indices to re-render on the next frame
    this.full = true; // re-render everything (after a clear)
    this.pendingClear = false;
    this.frame = 0;
  }

  set(outputs) {
    this.outputs = (outputs ?? []).map((o) => (o.text === undefined ? { ...o } : { ...o, text: joined(o.text) }));
    this.pendingClear = false;
    this.full = true;
    this.render();
  }

  clear() {
    this.outputs = [];
    this.full = true;
  }

  // One live event (stream, display_data, execute_result, error, clear_output, ...).
  apply(type, data) {
    if (type === 'clear_output') {
      if (data.wait) this.pendingClear = true;
      else this.clear();
      return this.schedule();
    }
    if (type === 'update_display_data') return this.updateDisplay(data);
    if (this.pendingClear) {
      this.clear();
      this.pendingClear = false;
    }
    const { cell_id: _cell, ...output } = data;
    const last = this.outputs.at(-1);
    if (type === 'stream' && last?.output_type === 'stream' && last.name === output.name) {
      last.text += output.text;
    } else {
      this.outputs.push({ output_type: type, ...output });
    }
    this.changed.add(this.outputs.length - 1);
    return this.schedule();
  }

  // A display shown with display_id=True and updated later (the events carry the id).
  updateDisplay({ display_id: id, data, metadata }) {
    this.outputs.forEach((output, i) => {
      if (!id || output.transient?.display_id !== id) return;
      Object.assign(output, { data, metadata });
      this.changed.add(i);
    });
    return this.schedule();
  }

  schedule() { // many small chunks: one repaint per frame
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  // Only the outputs that changed are rendered again (a long stream grows at its end).
  render() {
    if (this.full) {
      this.nodes = this.outputs.map(renderOutput);
      this.el.replaceChildren(...this.nodes);
    } else {
      for (const i of [...this.changed].sort((a, b) => a - b)) {
        const node = renderOutput(this.outputs[i]);
        if (this.nodes[i]) this.nodes[i].replaceWith(node);
        else this.el.append(node);
        this.nodes[i] = node;
      }
    }
    this.full = false;
    this.changed.clear();
    this.el.hidden = this.outputs.length === 0;
  }
}
