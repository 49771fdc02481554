/** The sender logo served to `logo_url`. */
export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" rx="6" fill="#1b4f8a"/><text x="60" y="26" font-family="sans-serif" font-size="16" fill="#fff" text-anchor="middle">Remetente</text></svg>`;

/** The homolog panel: orders and deliveries, with the buttons the test environment offers. */
export const PANEL_HTML = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<title>Sandbox - painel de homologação</title>
<style>
body { font: 14px sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 6px; text-align: left; vertical-align: top; }
button { margin: 1px; } .muted { color: #777; } pre { margin: 0; max-width: 40em; white-space: pre-wrap; }
#info { background: #f4f6f8; padding: .5em; }
</style>
</head>
<body>
<h1>Sandbox: painel de homologação</h1>
<div id="info"></div>
<p>
<button onclick="call('setMaintenance', { on: !state.info.maintenance })">alternar manutenção</button>
<button onclick="topUp()">adicionar créditos</button>
<button onclick="registerWebhook()">registrar webhook</button>
<button onclick="refresh()">atualizar</button>
</p>
<h2>Pedidos</h2>
<table><thead><tr><th>id</th><th>tipo</th><th>status</th><th>entrega</th><th>rastreio</th><th>arquivos</th><th>ações</th></tr></thead><tbody id="orders"></tbody></table>
<h2>Webhooks</h2>
<table><thead><tr><th>id</th><th>url</th><th>eventos</th><th>assinado</th><th>estado</th><th>ações</th></tr></thead><tbody id="webhooks"></tbody></table>
<h2>Entregas</h2>
<table><thead><tr><th>delivery_id</th><th>webhook</th><th>evento</th><th>estado</th><th>tentativas</th><th>ações</th></tr></thead><tbody id="deliveries"></tbody></table>
<script>
const state = { info: {} };
function esc(v) { return String(v ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]); }
async function call(name, body) {
	const res = await fetch('/_sandbox/' + name, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) });
	const data = await res.json();
	if (!res.ok) alert(data.error || res.status);
	await refresh();
	return data;
}
async function get(name) { return (await fetch('/_sandbox/' + name)).json(); }
function moveStatus(id, kind) {
	const status = prompt(kind === 'email' ? 'Novo status (0-5)' : 'Novo status (0-6)');
	if (status === null) return;
	const statusDelivery = kind === 'letter' ? prompt('status_delivery (vazio, delivered, going_back_to_sender, delivered_to_sender)', '') : undefined;
	call('setOrderStatus', { id, status: Number(status), statusDelivery: statusDelivery === null ? undefined : statusDelivery });
}
function topUp() { const amount = prompt('Valor', '100'); if (amount) call('topUp', { amount: Number(amount) }); }
function registerWebhook() {
	const url = prompt('URL do endpoint'); if (!url) return;
	const events = prompt('Eventos (separados por vírgula; * = todos)', '*');
	call('registerWebhook', { url, events: (events || '*').split(',').map((e) => e.trim()) });
}
async function refresh() {
	const [info, orders, webhooks, deliveries, balance] = await Promise.all([get('info'), get('orders'), get('webhooks'), get('deliveries'), get('balance')]);
	state.info = info;
	document.getElementById('info').innerHTML = 'Base: <b>' + esc(info.baseUrl) + '</b> · ambiente: <b>' + esc(info.environment) + '</b> · saldo: <b>' + esc(balance) + '</b> · manutenção: <b>' + (info.maintenance ? 'sim' : 'não') + '</b>';
	document.getElementById('orders').innerHTML = orders.slice().reverse().map((o) => '<tr><td>' + esc(o.id) + '</td><td>' + esc(o.kind === 'email' ? 'e-mail' : 'shipType ' + o.shipType) + '</td><td>' + esc(o.status) + '</td><td>' + esc(o.status_delivery) + '</td><td>' + esc(o.tracking) + '</td><td>' + (o.files || []).map((f) => esc(f.type)).join(', ') + '</td><td>' +
		'<button onclick="moveStatus(\\'' + esc(o.id) + '\\', \\'' + o.kind + '\\')">mover status</button>' +
		(o.kind === 'letter' ? '<button onclick="call(\\'addTrackingEvent\\', { id: \\'' + esc(o.id) + '\\' })">evento de rastreio</button><button onclick="call(\\'addReturnReceipt\\', { id: \\'' + esc(o.id) + '\\' })">adicionar AR</button>' : '') +
		'</td></tr>').join('') || '<tr><td colspan="7" class="muted">nenhum pedido</td></tr>';
	document.getElementById('webhooks').innerHTML = webhooks.map((w) => '<tr><td>' + w.id + '</td><td>' + esc(w.url) + '</td><td>' + esc(w.events.join(', ')) + '</td><td>' + (w.secret ? 'sim' : 'não') + '</td><td>' + (w.paused ? 'pausado' : 'ativo') + ' (' + w.consecutiveFailures + ' falhas)</td><td>' +
		(w.paused ? '<button onclick="call(\\'resumeWebhook\\', { id: ' + w.id + ' })">retomar</button>' : '<button onclick="call(\\'pauseWebhook\\', { id: ' + w.id + ' })">pausar</button>') +
		'<button onclick="call(\\'sendTestEvent\\', { id: ' + w.id + ' })">testar</button></td></tr>').join('') || '<tr><td colspan="6" class="muted">nenhum webhook</td></tr>';
	document.getElementById('deliveries').innerHTML = deliveries.slice().reverse().map((d) => '<tr><td>' + d.deliveryId + '</td><td>' + d.webhookId + '</td><td>' + esc(d.event) + '</td><td>' + esc(d.state) + '</td><td><pre>' +
		d.attempts.map((a) => esc(a.at + ' ' + (a.status ?? a.error) + ' ' + a.responseBody.slice(0, 120))).join('\\n') + '</pre></td><td>' +
		'<button onclick="call(\\'resendDelivery\\', { deliveryId: ' + d.deliveryId + ' })">reenviar</button></td></tr>').join('') || '<tr><td colspan="6" class="muted">nenhuma entrega</td></tr>';
}
refresh();
setInterval(refresh, 3000);
</script>
</body>
</html>
`;
