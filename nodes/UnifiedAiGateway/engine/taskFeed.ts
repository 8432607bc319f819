/**
 * Tasks handed to a wait one by one, as their submits answer (jobRunner.ts): the wait reads the
 * first tasks while the last are still being sent, so what it learns of the model's time is not
 * held up (and blurred) by the length of the submitting. `expected` is how many tasks the run may
 * create (the schedule picks √n leaders of them); `close()` says no more will come.
 */
export class TaskFeed<T> {
	readonly tasks: T[] = [];
	private open = true;
	private ring: (() => void) | undefined;
	private rang: Promise<void> | undefined;

	constructor(readonly expected: number) {}

	/** A task whose submit just answered. */
	push(task: T): number {
		this.tasks.push(task);
		this.wake();
		return this.tasks.length - 1;
	}

	close(): void {
		this.open = false;
		this.wake();
	}

	get closed(): boolean {
		return !this.open;
	}

	/** Settles at the next push or close. */
	arrival(): Promise<void> {
		this.rang ??= new Promise<void>((resolve) => (this.ring = resolve));
		return this.rang;
	}

	private wake(): void {
		this.ring?.();
		this.ring = undefined;
		this.rang = undefined;
	}
}
