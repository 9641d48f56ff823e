package io.refstore.web.schedules;

/** No schedule has that name. */
public class ScheduleNotFoundException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public ScheduleNotFoundException(String name) {
		super("no schedule is named '" + name + "'");
	}

}
