// The REST API with the token from the login form. The token lives in this tab's
// sessionStorage only: never in a URL, a cookie or localStorage.
const KEY = 'nbcritic.token';

export const token = {
  get: () => sessionStorage.getItem(KEY),
  set: (value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  constructor(status, detail, code) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.status = status;
    this.code = code;
  }
}

function authHeaders(extra = {}, value = token.get()) {
  return { Authorization: `Bearer ${value ?? ''}`, ...extra };
}

async function failure(res, signalUnauthorized = true) {
  let detail = res.statusText;
  let code;
  try {
    const body = await res.json();
    detail = body.detail ?? detail;
    code = body.code;
  } catch { /* not JSON */ }
  if (res.status === 401 && signalUnauthorized) window.dispatchEvent(new CustomEvent('nbcritic:unauthorized'));
  return new ApiError(res.status, detail, code);
}

// fetch() a route; JSON in and out. `raw` returns the Response (downloads).
export async function api(path, { method = 'GET', body, headers = {}, raw = false, auth } = {}) {
  const sent = authHeaders(headers, auth);
  let payload = body;
  if (body !== undefined && !(body instanceof FormData)) {
    sent['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers: sent, body: payload });
  if (!res.ok) throw await failure(res, auth === undefined); // a login attempt is not a logout
  if (raw) return res;
  return res.status === 204 ? null : res.json();
}

// Is this token the service's? (A route every token-holder may read.)
export async function checkToken(value) {
  await api('/api/critic', { auth: value });
}

export const enc = encodeURIComponent;

function parseBlock(block) {
  const event = { type: 'message', data: '', id: null };
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const at = line.indexOf(':');
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
    if (field === 'event') event.type = value;
    else if (field === 'data') event.data += (event.data ? '\n' : '') + value;
    else if (field === 'id') event.id = Number(value);
  }
  if (!event.data) return null;
  event.data = JSON.parse(event.data);
  return event;
}

const pause = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});

// Follow an execution's Server-Sent Events through fetch (EventSource cannot send the
// Authorization header). After a network drop it reconnects with Last-Event-ID, so no event
// is lost or seen twice. Resolves after the `done` event.
export async function followEvents(executionId, onEvent, { signal, after = 0 } = {}) {
  let last = after;
  while (!signal?.aborted) {
    try {
      const res = await fetch(`/api/executions/${enc(executionId)}/events`, {
        headers: authHeaders({ 'Last-Event-ID': String(last) }), signal,
      });
      if (!res.ok) throw await failure(res);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer = (buffer + value).replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (!event) continue;
          if (event.id !== null) last = event.id;
          onEvent(event);
          if (event.type === 'done') return;
        }
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (error instanceof ApiError && error.status < 500) throw error;
    }
    await pause(1000, signal); // the stream broke: resume after the last event seen
  }
}
