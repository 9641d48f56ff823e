package io.refstore.web.schedules;

/** The schedule cannot be created as asked: its name is taken. */
public class ScheduleConflictException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public ScheduleConflictException(String message) {
		super(message);
	}

}
