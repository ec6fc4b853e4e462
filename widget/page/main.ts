import { h } from './dom.ts';
import { WidgetApp } from './widget-app.ts';

/** The widget page's entry: its settings come from widgetUrl's query; the token only ever from the host page. */
const root = document.getElementById('widget')!;
const allowedOrigin = new URLSearchParams(location.search).get('allowedOrigin');
if (!allowedOrigin || window.parent === window) {
  root.replaceChildren(h('p', { role: 'alert' }, 'This page runs inside the app that opened it.'));
} else {
  void new WidgetApp(root, allowedOrigin).start();
}
