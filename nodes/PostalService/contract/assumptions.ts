/** Every name the node sends or reads where the interface says "not shown": a correction is one edit here (docs/assumptions.md). */
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
	chatProcessResultPath: ['data', 'result'],

	/** GET /api/chat/v1/templates/get: query parameter names. */
	templatesQuery: {
		/** 1 = only templates of the active system sender. */
		systemSenderOnly: 'system_sender',
		status: 'status',
	},

	/** GET /api/receipts/v1/get: the order id parameter (shown by the spec; the answer is not). */
	receiptOrderIdParam: 'order_id',

	/** Balance answer (`data` of envelope A): field names are not shown; the node names a bare number so. */
	balanceFields: { balance: 'balance' },

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

	/** GET /api/receipts/v1/get: where a file's base64 content and name may sit in the answer's `data`; the first present name wins. */
	receiptFileFields: { base64: ['file_base64', 'base64', 'pdf_base64'], name: ['file_name', 'name'] },
} as const;
