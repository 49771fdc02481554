import { FILE_TYPES, valuesOf } from '../../nodes/PostalService/contract/lists';
import type { SandboxCore } from '../core';
import { envelopeA, type Ctx, type Reply } from '../http';
import { emitStatusUpdated, findOrder } from '../orders';
import { LETTER_STATUS_TEXT, orderView } from '../views';
import { textPdf } from '../pdf';
import type { Order, StoredFile } from '../state';
import { round2, saoPauloDateTime } from '../util';

const FILE_TYPE_VALUES: StoredFile['type'][] = valuesOf(FILE_TYPES);
const DEFAULT_CANCEL_REASON = 'Cancelado via API';

/** A route on the order its path names: without one it serves, the call is refused before the route's own checks. */
function onPathOrder(route: (core: SandboxCore, ctx: Ctx, order: Order) => Reply): (core: SandboxCore, ctx: Ctx) => Promise<Reply> {
	return async (core, ctx) => {
		const id = decodeURIComponent(ctx.params[1]);
		// Under another reading, registered e-mail has routes of its own and the letter routes refuse `E…` ids.
		if (!core.names.emailOnLetterRoutes && id.startsWith('E')) {
			return envelopeA(400, `job_id inválido: ${id} é um e-mail registrado; use as rotas de e-mail`);
		}
		const order = findOrder(core, id);
		return order ? route(core, ctx, order) : envelopeA(400, 'Pedido não encontrado');
	};
}

export const getOrder = onPathOrder((_core, _ctx, order) => envelopeA(200, 'Sucesso', orderView(order)));

export const downloadFile = onPathOrder((core, ctx, order) => {
	const type = decodeURIComponent(ctx.params[2]) as StoredFile['type'];
	if (!FILE_TYPE_VALUES.includes(type)) {
		return envelopeA(400, `Tipo de arquivo inválido: ${type} (aceitos: ${FILE_TYPE_VALUES.join(', ')})`);
	}
	const candidates = order.files.filter((f) => f.type === type);
	const wanted = ctx.query[core.names.downloadFileNameParam];
	// Files are appended as they appear, so the last one is the most recent.
	const file = wanted ? candidates.find((f) => f.name === wanted) : candidates[candidates.length - 1];
	if (!file) {
		return envelopeA(
			400,
			wanted ? `Arquivo não encontrado: ${wanted}` : `Arquivo não disponível para este pedido: ${type}`,
		);
	}
	return envelopeA(200, 'Sucesso', {
		file_name: file.name,
		file_type: file.type,
		id_job: order.id,
		file_base64: file.base64,
	});
});

export const cancelOrder = onPathOrder((core, ctx, order) => {
	const force = ctx.query[core.names.cancelForceParam] === 'yes';
	const reason = ctx.query[core.names.cancelReasonParam] || DEFAULT_CANCEL_REASON;
	const cancelled = order.kind === 'letter' ? 5 : 4;
	const cancellable = order.kind === 'letter' ? [0, 2] : [0, 1, 2];
	if (!force) {
		if (order.status === cancelled) return envelopeA(400, 'Pedido já está cancelado');
		if (!cancellable.includes(order.status)) {
			const statusText = order.kind === 'letter' ? LETTER_STATUS_TEXT[order.status] : String(order.status);
			return envelopeA(
				400,
				`Pedido não pode ser cancelado no status ${order.status} (${statusText}); use ${core.names.cancelForceParam}=yes para forçar`,
			);
		}
	}
	const old = order.status;
	if (old !== cancelled) {
		// Credits come back only while nothing was produced or sent yet.
		const paidWithCredits = order.paymentMethod === 'service_credits' || order.paymentMethod === 'credits';
		const refundable = order.kind === 'letter' ? old === 0 : old === 0 || old === 1;
		if (paidWithCredits && refundable) core.state.balance = round2(core.state.balance + order.value);
		order.status = cancelled;
		order.cancel_reason = reason;
		order.dateLastChange = saoPauloDateTime();
		emitStatusUpdated(core, order, old);
		core.save();
	}
	return envelopeA(200, 'Pedido cancelado', {
		id: order.id,
		status: cancelled,
		status_text: 'Cancelado',
		message: reason,
	});
});

/** Not shown by the spec: envelope A with a generated PDF receipt, shaped like a downloaded file. */
export async function getReceipt(core: SandboxCore, ctx: Ctx): Promise<Reply> {
	const id = ctx.query[core.names.receiptOrderIdParam];
	if (!id) return envelopeA(400, `Requisição incompleta - campo obrigatório não preenchido: ${core.names.receiptOrderIdParam}`);
	const order = findOrder(core, id);
	if (!order) return envelopeA(400, 'Pedido não encontrado');
	const created = order.kind === 'letter' ? order.dateSubmit : order.created_at;
	const pdf = textPdf('Recibo', [
		`Pedido ${order.id}`,
		`Data: ${created}`,
		`Valor: R$ ${order.value.toFixed(2).replace('.', ',')}`,
		`Forma de pagamento: ${order.paymentMethod}`,
	]);
	const fields = core.names.receiptFileFields;
	return envelopeA(200, 'Sucesso', {
		[fields.name[0]]: `recibo-${order.id}.pdf`,
		file_type: 'receipt',
		id_job: order.id,
		[fields.base64[0]]: pdf.toString('base64'),
	});
}
