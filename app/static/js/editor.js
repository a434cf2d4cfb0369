// The cell editor: CodeMirror 6 with Python highlighting, Shift+Enter to run, and the
// critic's evidence lines highlighted (they follow the text while it is edited).
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection, Decoration } from '@codemirror/view';
import { EditorState, StateField, StateEffect } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, indentOnInput, bracketMatching } from '@codemirror/language';
import { python } from '@codemirror/lang-python';

const setEvidence = StateEffect.define();
const evidenceMark = Decoration.line({ class: 'cm-evidence-line', attributes: { title: 'evidence of a finding' } });

const evidence = StateField.define({
  create: () => Decoration.none,
  update(lines, tr) {
    let next = lines.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setEvidence)) continue;
      const doc = tr.state.doc;
      const numbers = [...new Set(effect.value)].filter((n) => n >= 1 && n <= doc.lines).sort((a, b) => a - b);
      next = Decoration.set(numbers.map((n) => evidenceMark.range(doc.line(n).from)));
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export function createEditor({ parent, doc, language, label, onChange, onRun }) {
  let quiet = false; // setValue() is not an edit by the person
  const extensions = [
    lineNumbers(), history(), drawSelection(), indentOnInput(), bracketMatching(), highlightActiveLine(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    keymap.of([{ key: 'Shift-Enter', run: () => { onRun(); return true; } },
      ...defaultKeymap, ...historyKeymap, indentWithTab]),
    evidence,
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': label }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged && !quiet) onChange(update.state.doc.toString());
    }),
  ];
  if (language === 'python') extensions.push(python());
  const view = new EditorView({ parent, state: EditorState.create({ doc, extensions }) });
  return {
    view,
    get value() { return view.state.doc.toString(); },
    setValue(text) {
      if (text === view.state.doc.toString()) return;
      quiet = true;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      quiet = false;
    },
    highlight(lines) { view.dispatch({ effects: setEvidence.of(lines) }); },
    goToLine(number) { // the cursor to the start of that line, scrolled into view
      const line = view.state.doc.line(Math.min(Math.max(number, 1), view.state.doc.lines));
      view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
      view.focus();
    },
    focus() { view.focus(); },
    destroy() { view.destroy(); },
  };
}
