/**
 * The base class of a server-side actor (reference `Actor`). Its runtime services exist only inside
 * a deployed actor; here they say so, with the reference's messages.
 */
const onlyDeployed = (what: string): never => {
  throw new Error(`Actor.${what} is only available inside a deployed actor`);
};

export interface ActorConn<Send = unknown> {
  id: string;
  send(data: Send): void;
  reject(code: number, reason: string): void;
}

/** An actor's durable key-value storage. */
export interface ActorStorage {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  deleteAll(): Promise<void>;
}

export abstract class Actor<Incoming = unknown, Outgoing = unknown> {
  protected tickIntervalMs = 100;
  abstract handleConnect(conn: ActorConn<Outgoing>): void | Promise<void>;
  abstract handleMessage(conn: ActorConn<Outgoing>, message: Incoming): void | Promise<void>;
  abstract handleClose(conn: ActorConn<Outgoing>): void | Promise<void>;
  abstract handleTick(): void | Promise<void>;
  handleStart(): void | Promise<void> {}
  protected handleWake(key: string): void | Promise<void> {
    void key;
  }
  protected schedule(key: string, at: number | Date): Promise<void> {
    void [key, at];
    return onlyDeployed('schedule()');
  }
  protected cancelSchedule(key: string): Promise<void> {
    void key;
    return onlyDeployed('cancelSchedule()');
  }
  protected broadcast(data: Outgoing): void {
    void data;
    onlyDeployed('broadcast()');
  }
  protected getConnections(): ActorConn<Outgoing>[] {
    return onlyDeployed('getConnections()');
  }
  protected get instanceId(): string {
    return onlyDeployed('instanceId');
  }
  protected get storage(): ActorStorage {
    return onlyDeployed('storage');
  }
  protected get client(): unknown {
    return onlyDeployed('client');
  }
}
