// The reason every correction keeps (docs/decisions/0920). The corrections' own schemas live
// with their writes' others: the payment ones in ./payment, the invoice ones in ./invoice, the
// payout ones in ./settlements.
import { requiredText } from "./fields";

const REASON_MAX = 500;

export const reasonField = () => requiredText("Reason", REASON_MAX, { multiline: true });
