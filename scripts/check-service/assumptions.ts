/**
 * What the action node guesses where the service's interface is silent, in words: the names it
 * sends and reads (`ASSUMED` in nodes/PostalService/contract/assumptions.ts) and the readings it
 * acts on without a name. `npm run check-service` checks each one against a real account, and
 * docs/assumptions.md is made from this list.
 */
import type { ASSUMED } from '../../nodes/PostalService/contract/assumptions';

/** Readings the node acts on without sending a name for them. */
type Reading = 'chatPaymentMethods' | 'emailOnLetterRoutes' | 'senderWithoutCountryIsBrazilian';

export type AssumptionKey = keyof typeof ASSUMED | Reading;

interface Assumption {
	key: AssumptionKey;
	/** What the package takes to be true. */
	guess: string;
	/** What a user does if the service answers otherwise. */
	wayAround: string;
}

/** The list docs/assumptions.md shows and `npm run check-service` checks: one entry per guess of the node. */
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
		wayAround: 'Read the output item: it keeps the answer\'s `data` whole, `result` found beside it, and the service\'s own words in `message`; test the field the service uses.',
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
		guess: 'Account > Get Balance outputs `data` as the service sends it, and names a bare number `balance`.',
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

/**
 * Where the interface is silent about webhooks, what the trigger takes it to mean, and how the
 * trigger (or its user) stays right if the guess is wrong; `--listen` checks them.
 */
export const TRIGGER_ASSUMPTIONS = [
	{
		guess: 'X-Webhook-Timestamp is São Paulo wall-clock time, like the body\'s "timestamp"',
		why: 'The interface gives a time zone for the body\'s "timestamp" only.',
		wayAround:
			'Maximum Age accepts the header read as São Paulo time or as UTC, and each item says which reading matched in "timestampHeaderZone". Leave Maximum Age unset to ignore the header.',
	},
	{
		guess: 'A retry carries the delivery_id of the attempt it repeats',
		why: 'The envelope calls delivery_id the "unique id of this delivery attempt", and also the key to deduplicate on.',
		wayAround:
			'The trigger also drops a delivery whose body, delivery_id aside, already ran: a retry repeats the event\'s timestamp (when it was generated) and its data, and two events differ in one of them. The option "Drop Repeats Under a New Delivery ID" is on by default.',
	},
	{
		guess: 'The signed body carries "environment"',
		why: 'The envelope lists it; the X-Webhook-Environment header carries it too, but headers are not signed.',
		wayAround:
			'A body without it is of unknown environment: only a workflow whose Environment is Both takes it, and it is remembered apart from both environments. The header is never used to take or drop a delivery.',
	},
] as const;
