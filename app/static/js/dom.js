// A small element builder: h('button', {type: 'button', onclick}, 'Run').
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : value);
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

let noticeTimer;
// A message in the page's live region (read out by screen readers).
export function notice(text, kind = 'info') {
  const el = document.getElementById('notice');
  el.textContent = text;
  el.dataset.kind = kind;
  clearTimeout(noticeTimer);
  if (kind !== 'error') noticeTimer = setTimeout(() => { el.textContent = ''; }, 6000);
}

export function fail(error) {
  notice(error.message ?? String(error), 'error');
}

let ids = 0;
export const uid = (prefix) => `${prefix}-${++ids}`;
