import { ASSUMED } from '../nodes/PostalService/contract/assumptions';
import { PAYMENT_METHODS, valuesOf } from '../nodes/PostalService/contract/lists';

type Widen<T> = T extends string
	? string
	: T extends boolean
		? boolean
		: T extends readonly (infer U)[]
			? readonly Widen<U>[]
			: { readonly [K in keyof T]: Widen<T[K]> };

/** Readings of the interface the node acts on without sending a name for them, as the sandbox plays them. */
const READINGS = {
	/** A chat message takes the payment methods of a letter. */
	chatPaymentMethods: valuesOf(PAYMENT_METHODS),
	/** Registered e-mail is read, downloaded and cancelled on the letter routes, by its `E…` id. */
	emailOnLetterRoutes: true,
	/** A sender without `country_sender` is Brazilian: its postal code and state are checked as such. */
	senderWithoutCountryIsBrazilian: true,
};

/** Every name and reading the sandbox answers to, with any values: the package's, or another reading. */
export type AssumedNames = Widen<typeof ASSUMED & typeof READINGS>;

const PACKAGE_NAMES: AssumedNames = { ...ASSUMED, ...READINGS };

/**
 * Another reasonable reading of everything the interface leaves unshown: the sandbox option
 * `renamedAssumptions` serves it, so that `check-service` is seen to report each guess that differs.
 */
export const RENAMED: AssumedNames = {
	cancelForceParam: 'forcar',
	cancelReasonParam: 'motivo',
	downloadFileNameParam: 'arquivo',
	chatSend: {
		phone: 'telefone',
		senderId: 'remetente_id',
		templateId: 'modelo_id',
		variables: 'variaveis',
		paymentMethod: 'forma_pagamento',
		teamMemberId: 'membro_id',
	},
	chatPaymentMethods: ['creditos', 'fatura', 'equipe'],
	chatProcessResultPath: ['data', 'resultado'],
	templatesQuery: { systemSenderOnly: 'somente_sistema', status: 'situacao' },
	receiptOrderIdParam: 'pedido',
	balanceFields: { balance: 'saldo' },
	favoriteFields: ASSUMED.favoriteFields.map((name) => `${name}_contato`),
	chatSenderFields: { id: 'codigo', name: 'nome', phone: 'telefone' },
	receiptFileFields: { base64: ['conteudo'], name: ['nome_arquivo'] },
	emailOnLetterRoutes: false,
	senderWithoutCountryIsBrazilian: false,
};

/** The names a sandbox answers to: the package's, or the other reading for all (`true`) or some keys. */
export function namesFor(renamed: boolean | readonly (keyof AssumedNames)[] | undefined): AssumedNames {
	if (!renamed) return PACKAGE_NAMES;
	const keys = Object.keys(PACKAGE_NAMES) as (keyof AssumedNames)[];
	return Object.fromEntries(
		keys.map((key) => [key, renamed === true || renamed.includes(key) ? RENAMED[key] : PACKAGE_NAMES[key]]),
	) as unknown as AssumedNames;
}
