import type { FileType, TemplateStatus } from '../nodes/PostalService/contract/lists';
import { saoPauloDateTime } from './util';

export type LetterFileType = FileType;

export interface StoredFile {
	name: string;
	type: LetterFileType;
	created_at: string;
	mimeType: string;
	/** Content in base64, so the whole state stays JSON (and can be saved to a file). */
	base64: string;
}

export interface TrackingEvent {
	codigo: string;
	dtHrCriado: string;
	descricao: string;
	unidade: { endereco: { cidade: string; uf: string } };
}

export interface Address {
	name: string;
	addr1: string;
	street_number: string;
	addr2: string;
	zip: string;
	city: string;
	state: string;
	country: string;
}

export interface LetterOrder {
	kind: 'letter';
	id: string;
	numPages: number;
	recipient: Address;
	sender: Address;
	shipType: number;
	tracking: string;
	status: number;
	status_delivery: string;
	delivery_suspension: string;
	delivery_suspension_at: string;
	files: StoredFile[];
	rr_count: number;
	dateSubmit: string;
	dateLastChange: string;
	value: number;
	use_client_contract: boolean;
	shipping_cost: number;
	tag: string;
	tracking_events: TrackingEvent[];
	tracking_records_last_update: string;
	telegram_info: Record<string, unknown>;
	paymentMethod: string;
	team_member_id: number | null;
	ar_type: string;
	virtualbox: boolean;
	toAddrOnly: number;
	duplex_printing: number;
	envelope_type: string;
	/** Index into the canned tracking story, for events added without details. */
	tracking_step: number;
	cancel_reason: string;
}

export interface EmailOrder {
	kind: 'email';
	id: string;
	status: number;
	recipient: { name: string; email: string };
	sender: { name_sender: string; email_sender: string; email_replyTo: string };
	subject: string;
	body: string;
	value: number;
	paymentMethod: string;
	created_at: string;
	dateLastChange: string;
	opened: boolean;
	date_opened: string;
	failure_reason: string;
	files: StoredFile[];
	cancel_reason: string;
}

export type Order = LetterOrder | EmailOrder;

export interface Favorite extends Address {
	id: number;
	id_user: number;
	label: string;
	email: string;
	phone: string;
	document: string;
	list_letter: number;
	list_email: number;
	list_whatsapp: number;
	dateCreated: string;
}

export interface ChatSender {
	id: number;
	name: string;
	phone: string;
	is_system: boolean;
	status: string;
	created_at: string;
}

export interface ChatTemplate {
	id: number;
	sender_id: number;
	sender_name: string;
	sender_phone: string;
	sender_is_system: boolean;
	created_by: number;
	name: string;
	display_name: string;
	language: string;
	status: TemplateStatus;
	category: string;
	variables_count: number;
	variable_names: string[];
	header_text: string;
	header_format: string;
	body_text: string;
	footer_text: string;
	components: string;
	last_synced_at: string;
}

export interface ChatMessage {
	message_id: number;
	visual_id: string;
	/** `processing` on acceptance, `queued` after a reprocess, `2` when credits ran short: a string, as the interface types it. */
	status: string;
	paymentMethod: string;
	stored_payment_method: string;
	team_member_id: number;
	template_id: number;
	template_name: string;
	sender_id: number;
	phone: string;
	variables: Record<string, string>;
	value: number;
	created_at: string;
	/** Why the message was not sent (a test-environment recipient not on the allow-list); else empty. */
	failure_reason: string;
}

export interface State {
	balance: number;
	/** Whether the account has its own postal-operator contract (rule 7 of create order). */
	clientContract: boolean;
	nextOrderId: number;
	nextEmailId: number;
	nextMessageId: number;
	orders: Order[];
	favorites: Favorite[];
	chatNumbers: string[];
	/** The test environment's allow-list of chat recipients (E.164). */
	chatAllowList: string[];
	emailAllowList: string[];
	senders: ChatSender[];
	templates: ChatTemplate[];
	chatMessages: ChatMessage[];
}

/** The demo account's own profile: the sender of an order that names none. */
export const ACCOUNT_PROFILE: Address = {
	name: 'Conta Demonstração',
	addr1: 'Rua Barão de Jaguara',
	street_number: '1481',
	addr2: 'Sala 12',
	zip: '13015-002',
	city: 'Campinas',
	state: 'SP',
	country: 'Brasil',
};

/** The service's own unit (virtual box and express-parcel rule): São Paulo/SP. */
export const SERVICE_UNIT: Address = {
	name: 'Caixa Postal Virtual - Unidade São Paulo',
	addr1: 'Rua da Consolação',
	street_number: '1000',
	addr2: '',
	zip: '01302-000',
	city: 'São Paulo',
	state: 'SP',
	country: 'Brasil',
};

/** The São Paulo address of the demo data (the first favorite, the panel's sample letter), kept in one place. */
export const DEMO_ADDRESS: Omit<Address, 'name'> = {
	addr1: 'Avenida Paulista',
	street_number: '1578',
	addr2: 'Conjunto 4',
	zip: '01310-200',
	city: 'São Paulo',
	state: 'SP',
	country: 'Brasil',
};

export const ACCOUNT_USER_ID = 1;

/** A chat template as the service lists it, of one of the account's senders. */
export function chatTemplate(input: {
	id: number;
	sender: ChatSender;
	name: string;
	status: TemplateStatus;
	body: string;
	variableNames: string[];
	syncedAt: string;
}): ChatTemplate {
	const { id, sender, name, status, body, variableNames } = input;
	return {
		id,
		sender_id: sender.id,
		sender_name: sender.name,
		sender_phone: sender.phone,
		sender_is_system: sender.is_system,
		created_by: ACCOUNT_USER_ID,
		name,
		display_name: name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
		language: 'pt_BR',
		status,
		category: 'UTILITY',
		variables_count: variableNames.length,
		variable_names: variableNames,
		header_text: '',
		header_format: 'NONE',
		body_text: body,
		footer_text: '',
		components: JSON.stringify([{ type: 'BODY', text: body }]),
		last_synced_at: input.syncedAt,
	};
}

export function seedState(balance: number): State {
	const now = saoPauloDateTime();
	const senders: ChatSender[] = [
		{ id: 1, name: 'Serviço Oficial', phone: '+5511900000001', is_system: true, status: 'active', created_at: now },
		{ id: 2, name: 'Loja Exemplo', phone: '+5511988887777', is_system: false, status: 'active', created_at: now },
	];
	const template = (id: number, sender: ChatSender, name: string, status: TemplateStatus, body: string, variableNames: string[]) =>
		chatTemplate({ id, sender, name, status, body, variableNames, syncedAt: now });
	const [system, shop] = senders;
	return {
		balance,
		clientContract: true,
		nextOrderId: 100001,
		nextEmailId: 5001,
		nextMessageId: 9001,
		orders: [],
		favorites: [
			{
				id: 1,
				id_user: ACCOUNT_USER_ID,
				label: 'Fornecedor',
				name: 'Maria da Silva',
				email: 'maria@example.com',
				phone: '+5511987654321',
				document: '12345678909',
				...DEMO_ADDRESS,
				list_letter: 1,
				list_email: 1,
				list_whatsapp: 0,
				dateCreated: now,
			},
			{
				id: 2,
				id_user: ACCOUNT_USER_ID,
				label: 'Cliente',
				name: 'João Souza',
				email: 'joao@example.com',
				phone: '+5521999990000',
				document: '',
				addr1: 'Rua do Ouvidor',
				street_number: '50',
				addr2: '',
				zip: '20040-030',
				city: 'Rio de Janeiro',
				state: 'RJ',
				country: 'Brasil',
				list_letter: 1,
				list_email: 0,
				list_whatsapp: 1,
				dateCreated: now,
			},
		],
		chatNumbers: ['+5511987654321', '+5521999990000', '+5511912345678', '+5511955554444'],
		chatAllowList: ['+5511987654321', '+5521999990000', '+5511912345678'],
		emailAllowList: ['@example.com', '@example.org'],
		senders,
		templates: [
			template(101, system, 'boas_vindas', 'approved', 'Olá {{1}}, seja bem-vindo!', ['nome']),
			template(
				102,
				shop,
				'lembrete_pagamento',
				'approved',
				'Olá {{1}}, sua fatura de {{2}} vence em {{3}}.',
				['nome', 'valor', 'vencimento'],
			),
			template(103, shop, 'aviso_entrega', 'pending', 'Seu pedido {{1}} saiu para entrega.', ['pedido']),
			template(104, shop, 'promocao_relampago', 'rejected', 'Promoção só hoje!', []),
			template(105, system, 'notificacao_extrajudicial', 'paused', 'Notificação para {{1}}.', ['nome']),
			template(106, shop, 'pesquisa_satisfacao', 'disabled', 'Avalie nosso atendimento, {{1}}.', ['nome']),
		],
		chatMessages: [],
	};
}
