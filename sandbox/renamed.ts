import { ASSUMED, type AssumedNames } from '../nodes/PostalService/contract/assumptions';

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
	balanceFields: { balance: 'saldo', currency: 'moeda' },
	favoriteFields: ASSUMED.favoriteFields.map((name) => `${name}_contato`),
	chatSenderFields: { id: 'codigo', name: 'nome', phone: 'telefone' },
	receiptFileFields: { base64: ['conteudo'], name: ['nome_arquivo'] },
	emailOnLetterRoutes: false,
	senderWithoutCountryIsBrazilian: false,
};

/** The names a sandbox answers to: the package's, or the other reading for all (`true`) or some keys. */
export function namesFor(renamed: boolean | readonly (keyof AssumedNames)[] | undefined): AssumedNames {
	if (!renamed) return ASSUMED;
	const keys = Object.keys(ASSUMED) as (keyof AssumedNames)[];
	return Object.fromEntries(
		keys.map((key) => [key, renamed === true || renamed.includes(key) ? RENAMED[key] : ASSUMED[key]]),
	) as unknown as AssumedNames;
}
