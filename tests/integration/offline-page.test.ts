// The No connection page the service worker keeps for the signed-in person (decision 1100):
// every signed-in role has it, and signed out it sends to sign-in.
import * as offlinePage from "../../app/routes/_app.offline";
import { describeAccess } from "../access";

describeAccess("the No connection page is for every signed-in user", [
  {
    name: "no connection page",
    handler: offlinePage.loader,
    method: "GET",
    path: "/offline",
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
]);
