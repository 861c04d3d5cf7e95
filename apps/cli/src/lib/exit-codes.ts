/** Stable exit codes; CI scripts branch on them, so never renumber. */
export enum ExitCode {
  Ok = 0,
  /** The config, a diagram, a context file or the bundle is invalid (locally or per the server: 400/413/422). */
  Validation = 1,
  /** Missing or refused token, missing/invalid gateway URL or config file (401/403/404). */
  Configuration = 2,
  /** The gateway failed or could not be reached (5xx after retries, network errors, timeouts). */
  ServerOrNetwork = 3,
  /**
   * `service-cli diff --exit-code` only: the comparison ran and something changed. Not 1 as in `git diff
   * --exit-code`: 1 is Validation here (an invalid checkout), and a CI step must tell "changed" from "could not
   * compare" by the code alone — as `terraform plan -detailed-exitcode` gives changes a code (2) no error uses.
   */
  DiffChanged = 4,
}
