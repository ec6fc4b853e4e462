import { useState } from 'preact/hooks';
import { html } from '../html.ts';

/** A button that opens a creation form below it; the form calls `done` once it made its resource: the panel closes and `onAdded` reads the list again. */
export function AddPanel({ label, onAdded, children }: { label: string; onAdded: () => void; children: (done: () => void) => unknown }) {
  const [open, setOpen] = useState(false);
  const done = () => {
    setOpen(false);
    onAdded();
  };
  return html`<div class="add-panel">
    <button type="button" class="secondary" aria-expanded=${open} onClick=${() => setOpen(!open)}>${open ? 'Cancel' : label}</button>
    ${open && children(done)}
  </div>`;
}
