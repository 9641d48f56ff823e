package io.refstore.web.refs;

/**
 * One ref of a deletion plan as the ref browser shows it: the value the plan recorded and
 * the one it holds now.
 *
 * @param name the full name
 * @param planned the value the plan recorded: an object id, or {@code ref: <target>} for
 * a symbolic ref
 * @param current the value now, written the same way, or {@code null} if the ref is gone
 */
public record PlanRefRow(String name, String planned, String current) {

	/** Whether the ref no longer exists. */
	public boolean gone() {
		return this.current == null;
	}

	/**
	 * Whether the ref holds another value than the plan recorded (the plan's execution
	 * then deletes nothing).
	 */
	public boolean moved() {
		return this.current != null && !this.current.equals(this.planned);
	}

}
