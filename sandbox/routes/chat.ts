import { TEMPLATE_STATUSES, valuesOf } from '../../nodes/PostalService/contract/lists';
import type { SandboxCore } from '../core';
import { envelopeA, envelopeB, text, type Ctx, type Reply } from '../http';
import type { ChatMessage, ChatTemplate } from '../state';
import { round2, saoPauloDateTime } from '../util';

/** Price of one chat message in the sandbox's own table (BRL). */
export const CHAT_PRICE = 0.5;
const TEMPLATE_STATUS_VALUES: ChatTemplate['status'][] = valuesOf(TEMPLATE_STATUSES);
const INCOMPLETE = 'Campos obrigatórios não preenchidos';

/** E.164 of a Brazilian-style number: `+` kept, 10 or 11 digits get the country code 55. */
export function normalizePhone(input: string): string | null {
	const trimmed = input.trim();
	const digits = trimmed.replace(/\D/g, '');
	if (trimmed.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
	if (digits.length === 10 || digits.length === 11) return `+55${digits}`;
	if (digits.length >= 12 && digits.length <= 15) return `+${digits}`;
	return null;
}

function readVariables(core: SandboxCore, fields: Record<string, unknown>): Record<string, string> | null {
	const raw = fields[core.names.chatSend.variables];
	const result: Record<string, string> = {};
	if (raw !== undefined && raw !== null && raw !== '') {
		let value: unknown = raw;
		if (typeof raw === 'string') {
			try {
				value = JSON.parse(raw);
			} catch {
				return null;
			}
		}
		if (Array.isArray(value) || typeof value !== 'object' || value === null) return null;
		for (const [key, v] of Object.entries(value)) result[key] = text(v) ?? '';
	}
	// Form bodies may spell the object as `variables[name]=value`.
	const prefix = `${core.names.chatSend.variables}[`;
	for (const [key, v] of Object.entries(fields)) {
		if (key.startsWith(prefix) && key.endsWith(']')) result[key.slice(prefix.length, -1)] = text(v) ?? '';
	}
	return result;
}

/** The interface types a message's `status` as a string, `2` (insufficient credits) included. */
export const INSUFFICIENT_CREDITS = '2';

function messageView(m: ChatMessage): Record<string, unknown> {
	return {
		message_id: m.message_id,
		visual_id: m.visual_id,
		// A state file written before statuses were strings may hold the integer 2.
		status: String(m.status),
		paymentMethod: m.paymentMethod,
		stored_payment_method: m.stored_payment_method,
		team_member_id: m.team_member_id,
		template_id: m.template_id,
		template_name: m.template_name,
		sender_id: m.sender_id,
	};
}

export async function sendChatMessage(core: SandboxCore, ctx: Ctx): Promise<Reply> {
	const names = core.names.chatSend;
	const phoneInput = text(ctx.fields[names.phone]);
	const templateIdInput = text(ctx.fields[names.templateId]);
	const senderIdInput = text(ctx.fields[names.senderId]);
	const methods = core.names.chatPaymentMethods;
	const [credits, , team] = methods;
	const paymentMethod = text(ctx.fields[names.paymentMethod]) || credits;
	const teamMemberInput = text(ctx.fields[names.teamMemberId]);
	if (!phoneInput || !templateIdInput) return envelopeA(400, INCOMPLETE);
	if (paymentMethod === team && !teamMemberInput) return envelopeA(400, INCOMPLETE);
	if (!methods.includes(paymentMethod)) {
		return envelopeA(400, `${names.paymentMethod}: valor inválido (aceitos: ${methods.join(', ')})`);
	}
	if (teamMemberInput && !/^\d+$/.test(teamMemberInput)) {
		return envelopeA(400, `${names.teamMemberId}: deve ser um número inteiro`);
	}
	const template = core.state.templates.find((t) => String(t.id) === templateIdInput);
	if (!template) return envelopeA(400, `${names.templateId}: template ${templateIdInput} não encontrado`);
	if (template.status !== 'approved') {
		return envelopeA(400, `${names.templateId}: template não aprovado (status ${template.status})`);
	}
	const senderId = senderIdInput ? Number(senderIdInput) : template.sender_id;
	if (!core.state.senders.some((s) => s.id === senderId)) {
		return envelopeA(400, `${names.senderId}: remetente ${senderIdInput} não encontrado`);
	}
	if (senderId !== template.sender_id) {
		return envelopeA(400, `${names.templateId}: o template não pertence ao remetente ${senderId}`);
	}
	const variables = readVariables(core, ctx.fields);
	if (!variables) return envelopeA(400, `${names.variables}: deve ser um objeto com as variáveis do template`);
	const missingVariables = template.variable_names.filter((name) => !variables[name]);
	if (missingVariables.length > 0) {
		return envelopeA(400, `${INCOMPLETE}: ${names.variables}.${missingVariables.join(`, ${names.variables}.`)}`);
	}
	const phone = normalizePhone(phoneInput);
	if (!phone) return envelopeA(400, `${names.phone}: número de telefone inválido`);
	if (!core.state.chatNumbers.includes(phone)) {
		return envelopeA(400, `${names.phone}: o número ${phone} não é um número do aplicativo de chat`);
	}

	// The test environment delivers for real, so only allow-listed recipients; others fail with the reason.
	const refused = core.settings.environment === 'homolog' && !core.state.chatAllowList.includes(phone);
	let status: ChatMessage['status'] = refused ? 'failed' : 'processing';
	if (refused) {
		// nothing is charged for a message that is never sent
	} else if (paymentMethod === credits) {
		if (core.state.balance >= CHAT_PRICE) core.state.balance = round2(core.state.balance - CHAT_PRICE);
		else status = INSUFFICIENT_CREDITS;
	}
	const id = core.state.nextMessageId++;
	const message: ChatMessage = {
		message_id: id,
		visual_id: String(700000 + id),
		status,
		paymentMethod,
		stored_payment_method: paymentMethod,
		team_member_id: teamMemberInput ? Number(teamMemberInput) : 0,
		template_id: template.id,
		template_name: template.name,
		sender_id: senderId,
		phone,
		variables,
		value: CHAT_PRICE,
		created_at: saoPauloDateTime(),
		failure_reason: refused ? `Destinatário ${phone} não está na lista de permissões do ambiente de testes` : '',
	};
	core.state.chatMessages.push(message);
	core.save();
	const said = refused ? message.failure_reason : status === INSUFFICIENT_CREDITS ? 'Créditos insuficientes' : 'Mensagem aceita';
	return envelopeA(200, said, messageView(message));
}

export async function reprocessChatMessage(core: SandboxCore, ctx: Ctx): Promise<Reply> {
	// The interface takes a JSON body {message_id: integer}: a form, or the id as text, is refused.
	if (ctx.bodyKind !== 'json') return envelopeA(400, `${INCOMPLETE}: envie application/json com message_id`);
	const given = ctx.fields.message_id;
	if (given === undefined || given === null || given === '') return envelopeA(400, INCOMPLETE);
	if (typeof given !== 'number' || !Number.isSafeInteger(given)) {
		return envelopeA(400, `message_id: deve ser um número inteiro (recebido ${JSON.stringify(given)})`);
	}
	const idText = String(given);
	const message = core.state.chatMessages.find((m) => String(m.message_id) === idText);
	if (!message) return envelopeA(400, `Mensagem ${idText} não encontrada`);
	const base = { message_id: message.message_id, visual_id: message.visual_id };
	const resultKey = core.names.chatProcessResultPath[core.names.chatProcessResultPath.length - 1];
	if (message.status === 'processing' || message.status === 'queued') {
		return envelopeA(200, 'Mensagem já está na fila ou em processamento', { success: false, ...base, [resultKey]: 'no_change' });
	}
	if (String(message.status) !== INSUFFICIENT_CREDITS) {
		return envelopeA(400, `Mensagem não pode ser reprocessada no status ${message.status}`);
	}
	const credits = core.names.chatPaymentMethods[0];
	if (message.stored_payment_method !== credits) {
		return envelopeA(400, `Somente mensagens pagas com ${credits} podem ser reprocessadas`);
	}
	if (core.state.balance < message.value) return envelopeA(400, 'Créditos insuficientes para reprocessar a mensagem');
	core.state.balance = round2(core.state.balance - message.value);
	message.status = 'queued';
	core.save();
	return envelopeA(200, 'Mensagem reenviada para a fila', { success: true, ...base, [resultKey]: 'queued' });
}

export async function listTemplates(core: SandboxCore, ctx: Ctx): Promise<Reply> {
	const q = core.names.templatesQuery;
	const status = ctx.query[q.status];
	if (status && !TEMPLATE_STATUS_VALUES.includes(status as ChatTemplate['status'])) {
		return envelopeB(400, `${q.status}: valor inválido (aceitos: ${TEMPLATE_STATUS_VALUES.join(', ')})`);
	}
	const systemOnly = ctx.query[q.systemSenderOnly];
	if (systemOnly !== undefined && systemOnly !== '0' && systemOnly !== '1') {
		return envelopeB(400, `${q.systemSenderOnly}: use 0 ou 1`);
	}
	const activeSystem = new Set(core.state.senders.filter((s) => s.is_system && s.status === 'active').map((s) => s.id));
	const templates = core.state.templates.filter(
		(t) => (!status || t.status === status) && (systemOnly !== '1' || activeSystem.has(t.sender_id)),
	);
	return envelopeB(200, 'Templates listados com sucesso', templates, { count: templates.length });
}

/** Not shown by the spec: envelope A whose data is the array of the account's senders. */
export async function listSenders(core: SandboxCore): Promise<Reply> {
	const f = core.names.chatSenderFields;
	const senders = core.state.senders.map(({ id, name, phone, ...rest }) => ({ [f.id]: id, [f.name]: name, [f.phone]: phone, ...rest }));
	return envelopeA(200, 'Sucesso', senders);
}
