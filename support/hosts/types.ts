/** A test host serving a static export, started by a `start<Name>Host` function of support/hosts/. */
export interface RunningHost {
  name: string;
  url: string;
  stop(): Promise<void>;
}
