import type { FileType, TemplateStatus } from '../nodes/PostalService/contract/lists';

export interface StoredFile {
	name: string;
	type: FileType;
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
}) {
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

export type ChatTemplate = ReturnType<typeof chatTemplate>;

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
