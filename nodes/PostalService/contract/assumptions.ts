/**
 * Every name the service's interface description does not show, in one place.
 *
 * The specification (version 1.0.0) describes these operations but leaves the names below "not
 * shown". Both the node and the local sandbox read them from here, so a correction is one edit.
 * Users can override any of them per request through each operation's "Additional Fields"
 * (extra query or body parameters) or reach an undocumented route through "Custom API Call".
 * The README lists this file's contents.
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
	/** POST /api/chat/v1/process: where `result` (`no_change`) sits in the answer. */
	chatProcessResultPath: ['data', 'result'] as const,

	/** GET /api/chat/v1/templates/get: query parameter names. */
	templatesQuery: {
		/** 1 = only templates of the active system sender. */
		systemSenderOnly: 'system_sender',
		status: 'status',
	},

	/** GET /api/receipts/v1/get: besides `order_id` (shown), its answer is not shown. */
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
	] as const,

	/** GET /api/chat/v1/senders/get: answer not shown; read as envelope A or B with a list of these. */
	chatSenderFields: { id: 'id', name: 'name', phone: 'phone' },

	/**
	 * GET /api/receipts/v1/get: where a file may sit in the answer's `data` (base64 content and its
	 * name). The first present name wins.
	 */
	receiptFileFields: { base64: ['file_base64', 'base64', 'pdf_base64'], name: ['file_name', 'name'] },

	/** telegram_post_dated_date: "string, date"; sent as this format. */
	telegramDateFormat: 'yyyy-MM-dd',

	/** Format of the order's date-time strings: not shown; webhooks use this one. */
	dateTimeFormat: 'yyyy-MM-dd HH:mm:ss',
} as const;

export type AssumedNames = typeof ASSUMED;
