// Lessons learned from verified fixes, and the improvement requests the service raised.
import { api, enc } from './api.js';
import { h, fail, notice } from './dom.js';

function lesson(item) {
  const scope = Object.entries(item.scope ?? {}).filter(([, v]) => v.length)
    .map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ');
  return h('li', { class: 'lesson' },
    h('p', {}, h('strong', {}, item.title), ' ', h('span', { class: 'badge' }, item.category),
      ` seen ${item.times_encountered}×`),
    h('p', {}, h('strong', {}, 'What went wrong: '), item.what_went_wrong),
    h('p', {}, h('strong', {}, 'What fixed it: '), item.what_fixed_it),
    scope ? h('p', { class: 'help' }, scope) : null);
}

function improvement(item, refresh) {
  const act = (action) => async () => {
    try {
      await api(`/api/improvements/${enc(item.id)}/${action}`, { method: 'POST', body: {} });
      notice(`Request ${action === 'dismiss' ? 'dismissed' : 'acknowledged'}.`);
      refresh();
    } catch (err) { fail(err); }
  };
  return h('li', { class: 'improvement', dataset: { status: item.status } },
    h('p', {}, h('strong', {}, item.title), ' ', h('span', { class: 'badge' }, `${item.priority} · ${item.status}`),
      ` ${item.occurrences}×`),
    item.description ? h('p', {}, item.description) : null,
    item.status === 'open' ? h('div', { class: 'row' },
      h('button', { type: 'button', onclick: act('acknowledge'), 'aria-label': `Acknowledge: ${item.title}` }, 'Acknowledge'),
      h('button', { type: 'button', onclick: act('dismiss'), 'aria-label': `Dismiss: ${item.title}` }, 'Dismiss')) : null);
}

export async function showLearning(main) {
  const lessons = h('ul', { class: 'lessons', 'aria-labelledby': 'lessons-title' });
  const requests = h('ul', { class: 'improvements', 'aria-labelledby': 'improvements-title' });
  const refresh = async () => {
    const [l, r] = await Promise.all([api('/api/lessons?limit=200'), api('/api/improvements?limit=200')]);
    lessons.replaceChildren(...(l.lessons.length ? l.lessons.map(lesson) : [h('li', {}, 'No lessons yet.')]));
    requests.replaceChildren(...(r.improvements.length ? r.improvements.map((i) => improvement(i, refresh))
      : [h('li', {}, 'No improvement requests.')]));
  };
  await refresh();
  main.replaceChildren(h('h1', {}, 'Lessons and improvement requests'),
    h('h2', { id: 'lessons-title' }, 'Lessons'), lessons,
    h('h2', { id: 'improvements-title' }, 'Improvement requests'), requests);
  return {};
}
