// The operator's whole front end: get a widget token from your own backend, open the widget.
const { PlugboardWidget } = await import(`${document.documentElement.dataset.plugboard}/embedded-widget.js`);
const events = document.getElementById('events');
const state = { events: [], tokenRequests: 0, widget: undefined };
window.plugboardDemo = state;

const fetchToken = async () => (await (await fetch(`/widget-token${location.search}`)).json()).token;
state.widget = new PlugboardWidget({
  token: await fetchToken(),
  onEvent(event) {
    state.events.push(event);
    const item = document.createElement('li');
    item.textContent = `${event.message ?? event.type}: ${JSON.stringify(event.data?.name ?? event.error ?? '')}`;
    events.append(item);
  },
});
// For the tests: count the widget's token requests (the widget answers them itself).
window.addEventListener('message', (event) => {
  if (event.data === 'auth_token_request') state.tokenRequests += 1;
});
state.fetchToken = fetchToken;
const button = document.getElementById('connect');
button.addEventListener('click', () => state.widget.open());
button.disabled = false;
