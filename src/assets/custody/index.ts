// The published surface of assets/custody: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { Checkout, ListCheckoutsQuery } from "./custody.schemas.ts";
export { ESCALATION_ACTIONS, currentCheckout, custodyOfItemQuery, escalateOverdueCheckout, expireReservations, getCheckout, reservationsDueAt, requireOverdueCheckout, startReservationWindows, toCheckoutDto } from "./custody.service.ts";
export type { CheckoutRow } from "./custody.service.ts";
