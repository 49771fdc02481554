/**
 * Every guess the package makes where the service's interface is silent, in one place.
 *
 * The specification (version 1.0.0) describes these operations but leaves the names and readings
 * below "not shown". The node, the local sandbox and `npm run check-service` read them from here,
 * so a correction is one edit. The README lists `ASSUMPTIONS` (what is guessed, the way around it).
 */
export const ASSUMED = {
	/** DELETE /api/v2/delete/{token}/{job_id}: query parameter of the force flag (value `yes`). */
	cancelForceParam: 'force',
	/** DELETE /api/v2/delete/{token}/{job_id}: query parameter of the cancellation reason. */
	cancelReasonParam: 'reason',
	/** GET /api/v2/download/...: query parameter that picks one return-receipt file by name. */
	downloadFileNameParam: 'file_name',

	/** POST /api/chat/v1/post: body field names (the spec shows none of them). */
	chatSend: {
		phone: 'phone',
		senderId: 'sender_id',
		templateId: 'template_id',
		/** Template variables as an object keyed by the template's `variable_names`. */
		variables: 'variables',
		paymentMethod: 'paymentMethod',
		teamMemberId: 'team_member_id',
	},
	/** POST /api/chat/v1/post: payment-method values, taken from create-order's list. */
	chatPaymentMethods: ['service_credits', 'invoice', 'team'],
	/** POST /api/chat/v1/process: where `result` (`no_change`) sits in the answer. */
	chatProcessResultPath: ['data', 'result'],

	/** GET /api/chat/v1/templates/get: query parameter names. */
	templatesQuery: {
		/** 1 = only templates of the active system sender. */
		systemSenderOnly: 'system_sender',
		status: 'status',
	},

	/** GET /api/receipts/v1/get: the order id parameter (shown by the spec; the answer is not). */
	receiptOrderIdParam: 'order_id',

	/** Balance answer (`data` of envelope A): field names are not shown. */
	balanceFields: { balance: 'balance', currency: 'currency' },

	/** Body fields of PUT /api/v2/favorites other than `id` and `name`: taken from the read shape. */
	favoriteFields: [
		'label',
		'email',
		'phone',
		'document',
		'addr1',
		'street_number',
		'addr2',
		'zip',
		'city',
		'state',
		'country',
		'list_letter',
		'list_email',
		'list_whatsapp',
	],

	/** GET /api/chat/v1/senders/get: answer not shown; read as envelope A or B with a list of these. */
	chatSenderFields: { id: 'id', name: 'name', phone: 'phone' },

	/**
	 * GET /api/receipts/v1/get: where a file may sit in the answer's `data` (base64 content and its
	 * name). The first present name wins.
	 */
	receiptFileFields: { base64: ['file_base64', 'base64', 'pdf_base64'], name: ['file_name', 'name'] },

	/** Registered e-mail read, download and cancel: the letter routes, with the `E…` id as job_id. */
	emailOnLetterRoutes: true,

	/** A sender without `country_sender` is Brazilian: its postal code and state are checked as such. */
	senderWithoutCountryIsBrazilian: true,
} as const;

type Widen<T> = T extends string
	? string
	: T extends boolean
		? boolean
		: T extends readonly (infer U)[]
			? readonly Widen<U>[]
			: { readonly [K in keyof T]: Widen<T[K]> };

/** The shape of `ASSUMED` with any values: what another reading of the interface would fill in. */
export type AssumedNames = Widen<typeof ASSUMED>;

interface Assumption {
	key: keyof typeof ASSUMED;
	/** What the package takes to be true. */
	guess: string;
	/** What a user does if the service answers otherwise. */
	wayAround: string;
}

/** The list the README shows and `npm run check-service` checks, one entry per key of `ASSUMED`. */
export const ASSUMPTIONS: readonly Assumption[] = [
	{
		key: 'cancelForceParam',
		guess: 'Letter > Cancel sends the force flag as query parameter `force=yes`.',
		wayAround: 'Extra Parameters (query) with the right name and `yes`; leave Force off.',
	},
	{
		key: 'cancelReasonParam',
		guess: 'Letter > Cancel sends the reason as query parameter `reason`.',
		wayAround: 'Extra Parameters (query) with the right name; leave Reason empty.',
	},
	{
		key: 'downloadFileNameParam',
		guess: 'Letter > Download File picks one return receipt by query parameter `file_name`.',
		wayAround: 'Extra Parameters (query) with the right name and the file name from Letter > Get.',
	},
	{
		key: 'chatSend',
		guess: 'Chat Message > Send posts `phone`, `sender_id`, `template_id`, `variables` (an object), `paymentMethod`, `team_member_id`.',
		wayAround: 'Extra Parameters (body) with the right names, or an HTTP Request node with the chat credential.',
	},
	{
		key: 'chatPaymentMethods',
		guess: 'A chat message takes the payment methods of a letter: `service_credits`, `invoice`, `team`.',
		wayAround: 'Extra Parameters (body) `paymentMethod` with the value the service names.',
	},
	{
		key: 'chatProcessResultPath',
		guess: 'Chat Message > Reprocess finds `no_change` at `data.result`.',
		wayAround: 'Read the raw answer in the output item (it is kept whole) and test the field the service uses.',
	},
	{
		key: 'templatesQuery',
		guess: 'Chat Template > Get Many filters with query parameters `system_sender=1` and `status`.',
		wayAround: 'Extra Parameters (query) with the right names, or filter the list with n8n\'s Filter node.',
	},
	{
		key: 'receiptOrderIdParam',
		guess: 'Order Receipt > Get sends the order id as query parameter `order_id` (the interface shows it).',
		wayAround: 'Extra Parameters (query) with the right name.',
	},
	{
		key: 'balanceFields',
		guess: 'Account > Get Balance reads `data.balance` and `data.currency`.',
		wayAround: 'The whole `data` object is output; read the field the service uses.',
	},
	{
		key: 'favoriteFields',
		guess: 'Saved Contact > Update sends the read shape\'s names (`label`, `email`, `zip`, `list_letter`, …).',
		wayAround: 'Extra Parameters (body) with the right names.',
	},
	{
		key: 'chatSenderFields',
		guess: 'The sender list (envelope A or B) holds items with `id`, `name`, `phone`.',
		wayAround: 'Type the sender id by hand (By ID) instead of choosing it from the list.',
	},
	{
		key: 'receiptFileFields',
		guess: 'Order Receipt > Get finds the file in `data.file_base64`/`base64`/`pdf_base64`, its name in `file_name`/`name`.',
		wayAround: 'The whole answer is output; convert the field with n8n\'s Convert to File node.',
	},
	{
		key: 'emailOnLetterRoutes',
		guess: 'Registered E-Mail > Get, Download File and Cancel use the letter routes (`/api/v2/get|download|delete`) with the `E…` id.',
		wayAround: 'An HTTP Request node with the Postal Service credential, to the route the service names for e-mail.',
	},
	{
		key: 'senderWithoutCountryIsBrazilian',
		guess: 'A sender without Country is Brazilian: its postal code and state are checked as Brazilian before sending.',
		wayAround: 'Fill in the sender\'s Country for a sender abroad.',
	},
];
