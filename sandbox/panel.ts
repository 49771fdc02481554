import { EMAIL_STATUSES, ORDER_STATUSES, SHIP_TYPES } from '../nodes/PostalService/contract/lists';
import { SHIP_TYPE_RULES } from '../nodes/PostalService/contract/order';
import { DELIVERY_STATUSES, RR_TYPES, WEBHOOK_EVENTS } from '../nodes/PostalServiceTrigger/webhookLists';
import { TRACKING_STORY } from './orders';

/** The sender logo served to `logo_url`. */
export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" rx="6" fill="#1b4f8a"/><text x="60" y="26" font-family="sans-serif" font-size="16" fill="#fff" text-anchor="middle">Remetente</text></svg>`;

/** Every list the page names values from, so a status reads "Posted (4)" and not "4". */
const LISTS = {
	orderStatuses: ORDER_STATUSES,
	emailStatuses: EMAIL_STATUSES,
	shipTypes: SHIP_TYPES,
	events: WEBHOOK_EVENTS.map(({ value, name }) => ({ value, name })),
	deliveryStatuses: DELIVERY_STATUSES.map((value) => ({ value, name: value === '' ? 'Not delivered yet' : value.replace(/_/g, ' ') })),
	rrTypes: RR_TYPES.map((value) => ({ value, name: value === 'rr' ? 'Paper (scanned)' : 'Electronic' })),
	arShipTypes: SHIP_TYPE_RULES.returnReceipt,
	trackingEvents: TRACKING_STORY,
};

/** The test environment's panel: orders, webhooks and deliveries, with the actions the service's panel offers. */
export const PANEL_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sandbox: test environment panel</title>
<style>
body { font: 14px/1.4 sans-serif; margin: 1.5em auto; max-width: 76em; padding: 0 1em; color: #222; }
h1 { font-size: 1.35em; } h2 { font-size: 1.1em; margin-top: 1.6em; border-bottom: 2px solid #1b4f8a; padding-bottom: .2em; }
table { border-collapse: collapse; width: 100%; } th { background: #f4f6f8; }
th, td { border-bottom: 1px solid #ddd; padding: 5px 6px; text-align: left; vertical-align: top; }
form { display: inline-flex; gap: .3em; align-items: center; flex-wrap: wrap; margin: 1px 0; }
fieldset { border: 1px solid #ccc; margin: .5em 0; } .muted { color: #777; } .bad { color: #a11; } .good { color: #175; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; font-size: 12px; max-width: 36em; }
#info { background: #f4f6f8; padding: .6em; } #message { min-height: 1.4em; font-weight: bold; }
</style>
</head>
<body>
<h1>Sandbox: test environment panel</h1>
<div id="info">Loading…</div>
<p id="message" role="status"></p>

<h2>Actions</h2>
<form data-call="sendSampleLetter" data-done="Sample letter sent"><button>Send a sample letter</button>
<span class="muted">a registered letter with return receipt and a generated PDF, through the create route; move it below</span></form><br>
<form data-call="topUp" data-done="Credits added"><label>Add credits (BRL) <input name="amount" type="number" min="1" step="0.01" value="100" required></label><button>Add credits</button></form>
<form data-call="setMaintenance" data-done="Maintenance switched" id="maintenance"><input type="hidden" name="on" value="true"><button>Start maintenance</button></form>
<form data-call="addChatRecipient" data-done="Chat recipient allowed"><label>Allow chat recipient <input name="phone" placeholder="+5511987654321" required></label><button>Allow</button></form>
<form data-call="addEmailRecipient" data-done="E-mail recipient allowed"><label>Allow e-mail recipient <input name="email" placeholder="ana@example.com or @example.com" required></label><button>Allow</button></form>

<h2>Orders</h2>
<table><thead><tr><th>ID</th><th>Kind</th><th>Status</th><th>Delivery</th><th>Tracking</th><th>Files</th><th>Actions</th></tr></thead><tbody id="orders"></tbody></table>

<h2>Records of your CRM</h2>
<p class="muted">Each record the examples wrote to at the receiver: its notes (POST <code>…/notas</code> or <code>…/notes</code>) and its attachments (PUT <code>…/anexos/…</code>), whose links give the file back.</p>
<table><thead><tr><th>Record</th><th>Notes</th><th>Attachments</th></tr></thead><tbody id="records"></tbody></table>

<h2>Webhooks</h2>
<form data-call="registerWebhook" data-done="Webhook registered" id="register"><fieldset><legend>Register an endpoint</legend>
<label>URL <input name="url" type="url" size="50" placeholder="http://localhost:5678/webhook/…" required></label>
<label>Name <input name="name" placeholder="My n8n"></label><br><span id="event-boxes"></span>
<br><label>Signing secret <input name="secret" placeholder="the sandbox's secret"></label> <button>Register</button></fieldset></form>
<table><thead><tr><th>ID</th><th>Name and URL</th><th>Events</th><th>Signed</th><th>State</th><th>Actions</th></tr></thead><tbody id="webhooks"></tbody></table>
<ul id="notices"></ul>

<h2>Deliveries</h2>
<table><thead><tr><th>Delivery</th><th>Endpoint</th><th>Event</th><th>State</th><th>Attempts and answers</th><th>Actions</th></tr></thead><tbody id="deliveries"></tbody></table>

<h2>Chat messages</h2>
<table><thead><tr><th>ID</th><th>To</th><th>Template</th><th>Status</th><th>Reason</th></tr></thead><tbody id="chat"></tbody></table>

<h2>Received by your systems</h2>
<p class="muted">The receiver at <b id="receiver-url"></b> stands in for your team chat, CRM or file store: the examples <code>npm run dev</code> publishes post there, and every request is answered 200 (a GET of a path a file was PUT at gives that file back).</p>
<form data-call="clearReceived" data-done="Received requests cleared"><button>Clear what was received</button></form>
<table><thead><tr><th>#</th><th>When</th><th>Request</th><th>Body</th></tr></thead><tbody id="received"></tbody></table>

<script>
const LISTS = ${JSON.stringify(LISTS)};
const shown = {};
const $ = (id) => document.getElementById(id);
function esc(v) { return String(v ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]); }
function named(list, value) { const e = list.find((x) => x.value === value); return e ? (e.meaning || e.name) + ' (' + value + ')' : String(value); }
function options(list, selected) { return list.map((e) => '<option value="' + esc(e.value) + '"' + (e.value === selected ? ' selected' : '') + '>' + esc(named(list, e.value)) + '</option>').join(''); }
function say(text, bad) { const m = $('message'); m.textContent = text; m.className = bad ? 'bad' : 'good'; }
async function get(name) { return (await fetch('/_sandbox/' + name)).json(); }
async function call(name, body, done) {
	const res = await fetch('/_sandbox/' + name, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	const data = await res.json().catch(() => ({}));
	say(res.ok ? done : 'Refused: ' + (data && data.error ? data.error : res.status), !res.ok);
	await refresh();
}
document.addEventListener('submit', (event) => {
	event.preventDefault();
	const form = event.target;
	const body = { ...form.dataset };
	delete body.call; delete body.done;
	for (const [key, value] of new FormData(form)) {
		if (key === 'events') (body.events = body.events || []).push(value);
		else if (key === 'event') body.event = JSON.parse(value);
		else if (value !== '') body[key] = value;
	}
	call(form.dataset.call, body, form.dataset.done);
});
function render(id, rows, html, empty, columns) {
	const key = JSON.stringify(rows);
	if (shown[id] === key) return;
	shown[id] = key;
	$(id).innerHTML = rows.length ? rows.map(html).join('') : '<tr><td colspan="' + columns + '" class="muted">' + empty + '</td></tr>';
}
function orderRow(o) {
	const letter = o.kind === 'letter';
	const kind = letter ? named(LISTS.shipTypes, o.shipType) : 'Registered e-mail';
	const statuses = letter ? LISTS.orderStatuses : LISTS.emailStatuses;
	const move = '<form data-call="setOrderStatus" data-id="' + esc(o.id) + '" data-done="Status changed (order.status_updated sent)"><select name="status" aria-label="New status">' + options(statuses, o.status) + '</select>' +
		(letter ? '<select name="statusDelivery" aria-label="Delivery status">' + options(LISTS.deliveryStatuses, o.status_delivery) + '</select>' : '') + '<button>Move</button></form>';
	const more = letter ? trackingForm(o) + receiptForm(o) : '';
	return '<tr data-order="' + esc(o.id) + '"><td>' + esc(o.id) + '</td><td>' + esc(kind) + '</td><td class="status">' + esc(named(statuses, o.status)) + (o.failure_reason ? '<br><span class="bad">' + esc(o.failure_reason) + '</span>' : '') + '</td><td>' + esc(o.status_delivery || (letter ? '—' : o.opened ? 'opened' : '')) +
		'</td><td>' + esc(o.tracking) + '</td><td class="files">' + (o.files || []).map((f) => esc(f.type)).join(', ') + '</td><td>' + move + more + '</td></tr>';
}
// The service assigns a letter its tracking code before the postal operator reports any event, and
// each is a delivery of its own (new_tracking_code, then new_tracking_record): one button each, so
// that one click sends one delivery.
function trackingForm(o) {
	if (!o.tracking) return '<form data-call="addTrackingEvent" data-id="' + esc(o.id) + '" data-done="Tracking code assigned (tracking.updated sent: new_tracking_code)"><button>Assign tracking code</button></form>';
	const story = LISTS.trackingEvents;
	const newest = ((o.tracking_records || {}).eventos || [])[0];
	const next = Math.min(story.findIndex((s) => newest && s.codigo === newest.codigo) + 1, story.length - 1);
	const choices = story.map((s, i) => {
		const event = { codigo: s.codigo, descricao: s.descricao, cidade: s.atRecipient ? o.city : o.city_sender, uf: s.atRecipient ? o.state : o.state_sender };
		if (s.statusDelivery) event.statusDelivery = s.statusDelivery;
		return '<option value="' + esc(JSON.stringify(event)) + '"' + (i === next ? ' selected' : '') + '>' + esc(s.descricao + (s.statusDelivery ? ' (' + s.statusDelivery + ')' : '')) + '</option>';
	}).join('');
	return '<form data-call="addTrackingEvent" data-id="' + esc(o.id) + '" data-done="Tracking event added (tracking.updated sent: new_tracking_record)"><select name="event" aria-label="Tracking event">' + choices + '</select><button>Add tracking event</button></form>';
}
// The service makes a return receipt only for the ship types with AR, and returns it the way the
// letter's ar_type asked: the panel offers what the service would produce, and says why when nothing.
function receiptForm(o) {
	const receipt = o.return_receipt || {};
	if (receipt.refused) return '<form class="no-receipt" title="' + esc(receipt.refused) + '"><button disabled>Add return receipt</button> <span class="muted">No return receipt: ' + esc(named(LISTS.shipTypes, o.shipType)) + ' has no AR (only shipType ' + LISTS.arShipTypes.join(', ') + ')</span></form>';
	return '<form data-call="addReturnReceipt" data-id="' + esc(o.id) + '" data-done="Return receipt added (rr.created sent)"><button>Add return receipt</button> <span class="muted">' + esc(named(LISTS.rrTypes, receipt.type)) + ', as ar_type ' + esc(o.ar_type) + ' asks</span></form>';
}
function webhookRow(w) {
	const events = w.events.includes('*') ? 'All events' : w.events.map((e) => esc(named(LISTS.events, e))).join('<br>');
	const toggle = w.paused ? ['resumeWebhook', 'Resume', 'Endpoint resumed'] : ['pauseWebhook', 'Pause', 'Endpoint paused'];
	const action = (name, label, done) => '<form data-call="' + name + '" data-id="' + w.id + '" data-done="' + done + '"><button>' + label + '</button></form>';
	return '<tr><td>' + w.id + '</td><td>' + esc(w.name) + '<br><span class="muted">' + esc(w.url) + '</span></td><td>' + events + '</td><td>' + (w.secret ? 'Yes' : 'No') + '</td><td>' +
		(w.paused ? '<span class="bad">Paused</span>' : 'Active') + (w.consecutiveFailures ? ' (' + w.consecutiveFailures + ' failed in a row)' : '') + '</td><td>' +
		action(...toggle) + action('sendTestEvent', 'Send test event', 'Test event sent') + action('removeWebhook', 'Remove', 'Endpoint removed') + '</td></tr>';
}
const STATES = { pending: 'Sending', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed' };
function deliveryRow(d) {
	const attempts = d.attempts.map((a, i) => (i === 0 ? 'Sent ' : 'Retry ' + i + ' ') + (a.deliveryId && a.deliveryId !== d.deliveryId ? '(delivery_id ' + a.deliveryId + ') ' : '') + a.at + ' → ' + (a.status !== undefined ? 'HTTP ' + a.status : 'no answer: ' + a.error) + (a.responseBody ? '\\n  ' + a.responseBody.slice(0, 300) : '')).join('\\n');
	return '<tr data-delivery="' + d.deliveryId + '"><td>' + d.deliveryId + (d.test ? ' (test)' : '') + '</td><td>' + d.webhookId + '</td><td>' + esc(named(LISTS.events, d.event)) + '</td><td class="state">' + STATES[d.state] +
		(d.nextAttemptAt ? '<br><span class="muted">next at ' + esc(d.nextAttemptAt) + '</span>' : '') + '</td><td><pre>' + esc(attempts) + '</pre></td><td><form data-call="resendDelivery" data-delivery-id="' + d.deliveryId + '" data-done="Delivery resent"><button>Resend</button></form></td></tr>';
}
function chatRow(m) {
	return '<tr><td>' + m.message_id + '</td><td>' + esc(m.phone) + '</td><td>' + esc(m.template_name) + '</td><td>' + esc(String(m.status) === '2' ? 'Insufficient credits (2)' : m.status) + '</td><td class="bad">' + esc(m.failure_reason) + '</td></tr>';
}
function receivedRow(r) {
	const body = r.json !== undefined ? JSON.stringify(r.json, null, 1) : r.body;
	return '<tr data-received="' + r.id + '"><td>' + r.id + '</td><td>' + esc(r.at) + '</td><td>' + esc(r.method + ' ' + r.path) + '<br><span class="muted">' + esc(r.contentType) + '</span></td><td><pre>' + esc(body.slice(0, 600)) + '</pre></td></tr>';
}
// A record is the path before /notas, /notes, /anexos or /attachments: /crm/api/clientes/C-7 holds
// the notes posted to /crm/api/clientes/C-7/notas and the files put under /crm/api/clientes/C-7/anexos/.
const RECORD_PART = /^(.+?)[/](notas|notes|anexos|attachments)([/][^?]*)?([?].*)?$/;
function recordsOf(received, receiverUrl) {
	const records = new Map();
	for (const r of received) {
		const m = RECORD_PART.exec(r.path);
		if (!m) continue;
		const record = records.get(m[1]) || { path: m[1], notes: [], files: [] };
		records.set(m[1], record);
		const json = r.json || {};
		if (r.method === 'POST' && (m[2] === 'notas' || m[2] === 'notes')) record.notes.push({ at: r.at, text: String(json.texto ?? json.content ?? json.text ?? r.body) });
		if (r.method === 'PUT' && m[3]) record.files.push({ at: r.at, name: m[3].slice(1), size: r.size, url: receiverUrl + r.path.split('?')[0] });
	}
	return [...records.values()];
}
function linked(text) { return esc(text).replace(/https?:[/][/][^ <]+/g, (url) => '<a href="' + url + '" target="_blank">' + url + '</a>'); }
function recordRow(c) {
	const notes = c.notes.map((n) => '<li>' + esc(n.at) + ': ' + linked(n.text) + '</li>').join('');
	const files = c.files.map((f) => '<li><a href="' + esc(f.url) + '" target="_blank">' + esc(f.name) + '</a> <span class="muted">(' + f.size + ' bytes, ' + esc(f.at) + ')</span></li>').join('');
	return '<tr data-record="' + esc(c.path) + '"><td>' + esc(c.path) + '</td><td><ul class="notes">' + notes + '</ul></td><td><ul class="files">' + files + '</ul></td></tr>';
}
async function refresh() {
	const [info, orders, webhooks, deliveries, balance, notices, chat, received] = await Promise.all(['info', 'orders', 'webhooks', 'deliveries', 'balance', 'notices', 'chatMessages', 'received'].map(get));
	$('info').innerHTML = 'Base URL <b>' + esc(info.baseUrl) + '</b> · environment <b>' + esc(info.environment) + '</b> · balance <b>BRL ' + esc(Number(balance).toFixed(2)) + '</b> · maintenance <b>' + (info.maintenance ? 'on' : 'off') + '</b>' +
		(info.environment === 'homolog' ? '<br><span class="muted">Deliveries carry environment "homolog": a trigger set to Production drops them.</span>' : '');
	$('maintenance').innerHTML = '<input type="hidden" name="on" value="' + !info.maintenance + '"><button>' + (info.maintenance ? 'End maintenance' : 'Start maintenance') + '</button>';
	render('orders', orders.slice().reverse(), orderRow, 'No orders yet: send a sample letter above, or one from n8n.', 7);
	render('webhooks', webhooks, webhookRow, 'No endpoint registered.', 6);
	render('deliveries', deliveries.slice().reverse(), deliveryRow, 'No deliveries yet.', 6);
	render('chat', chat.slice().reverse(), chatRow, 'No chat messages.', 5);
	render('records', recordsOf(received, info.receiverUrl).reverse(), recordRow, 'No record written yet.', 3);
	render('received', received.slice().reverse(), receivedRow, 'Nothing received yet.', 4);
	$('receiver-url').textContent = info.receiverUrl;
	$('notices').innerHTML = notices.map((n) => '<li class="bad">' + esc(n.at + ' e-mail to the account: ' + n.subject) + '</li>').join('');
}
$('event-boxes').innerHTML = 'Events: ' + LISTS.events.map((e) => '<label><input type="checkbox" name="events" value="' + e.value + '" checked> ' + esc(named(LISTS.events, e.value)) + '</label>').join(' ');
refresh();
setInterval(refresh, 2000);
</script>
</body>
</html>
`;
