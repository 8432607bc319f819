/**
 * Tasks handed to a wait one by one, as their submits answer (running/batch.ts submitItems): the
 * wait reads the first tasks while the last are still being sent, so what it learns of the model's time is not
 * held up (and blurred) by the length of the submitting. `expected` is how many tasks the run may
 * create (the schedule picks √n leaders of them); `close()` says no more will come.
 */
export class TaskFeed<T> {
	readonly tasks: T[] = [];
	private open = true;

	constructor(readonly expected: number) {}

	/** A task whose submit just answered. */
	push(task: T): void {
		this.tasks.push(task);
	}

	close(): void {
		this.open = false;
	}

	get closed(): boolean {
		return !this.open;
	}
}
