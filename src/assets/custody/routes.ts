import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listCheckouts } from "./routes/list-checkouts.ts";
import { createCheckout } from "./routes/create-checkout.ts";
import { createReservation } from "./routes/create-reservation.ts";
import { cancelReservation } from "./routes/cancel-reservation.ts";
import { getCheckout } from "./routes/get-checkout.ts";
import { acknowledgeCheckout } from "./routes/acknowledge-checkout.ts";
import { extendCheckout } from "./routes/extend-checkout.ts";
import { transferCheckout } from "./routes/transfer-checkout.ts";
import { returnCheckout } from "./routes/return-checkout.ts";

export const routes: AnyRoute[] = [
  listCheckouts,
  createCheckout,
  createReservation,
  cancelReservation,
  getCheckout,
  acknowledgeCheckout,
  extendCheckout,
  transferCheckout,
  returnCheckout,
];
