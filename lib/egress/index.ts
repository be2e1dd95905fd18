/**
 * lib/egress: the egress guard and the one guarded HTTP client (DESIGN D4, §3.11).
 * Send with `guardedRequest`; hand `guardedFetch(posture)` only to libraries that
 * demand a fetch; use `checkDestination` to vet a URL without sending (ingestion).
 */
export type { AbortSignalLike } from "./call-deadline";
export type { AddressClass, BlockedKind, IpAddress, PrivateKind } from "./classify-address";
export { classifyAddress, describeAddressClass, parseIp } from "./classify-address";
export type { HostnameClass } from "./classify-hostname";
export { classifyHostname, normalizeHostname } from "./classify-hostname";
export type {
  CheckDestinationOptions,
  EgressAllowed,
  EgressDecision,
  EgressUnresolved,
  ResolvedAddress,
  Resolver,
} from "./check-destination";
export { checkDestination, systemResolver } from "./check-destination";
export { checkUrlForm } from "./url-form";
export type { CappedBody } from "./decode-body";
export { UnsupportedEncodingError, decodeBody, discardBody, readCapped } from "./decode-body";
export type { EgressBlock, EgressRule } from "./egress-block";
export { BLOCKED_PREFIX, NO_WIDENING, egressBlock } from "./egress-block";
export type {
  EgressConnectOptions,
  EgressConnector,
  EgressDispatcher,
  EgressDispatcherOptions,
} from "./egress-dispatcher";
export { createEgressDispatcher, egressDispatcherFor } from "./egress-dispatcher";
export type { FetchLike, GuardedFetchOptions } from "./guarded-fetch";
export { EgressBlockedError, guardedFetch } from "./guarded-fetch";
export type {
  GuardedFailure,
  GuardedFailureKind,
  GuardedRequestDeps,
  GuardedRequestInput,
  GuardedResult,
  GuardedSuccess,
} from "./guarded-request";
export { DEFAULT_MAX_BODY_BYTES, MAX_REDIRECTS, guardedRequest } from "./guarded-request";
export type { AllowlistMatch } from "./match-allowlist";
export { matchAllowlist } from "./match-allowlist";
export type { ParsedEgressUrl, ParsedUrlForm } from "./parse-url";
export { MAX_URL_BYTES, parseEgressUrl, parseUrlForm } from "./parse-url";
export type { AllowlistEntry, EgressPosture } from "./posture";
export {
  EGRESS_ENV,
  EgressConfigError,
  PROVIDER_HOSTS_ENV,
  STRICT_POSTURE,
  describePosture,
  parsePosture,
  parseProviderPosture,
  parseConfiguredEndpointPosture,
} from "./posture";
export type {
  EgressHop,
  SendWithRedirectsDeps,
  SendWithRedirectsInput,
  SendWithRedirectsOutcome,
} from "./send-with-redirects";
export { sendWithRedirects } from "./send-with-redirects";
