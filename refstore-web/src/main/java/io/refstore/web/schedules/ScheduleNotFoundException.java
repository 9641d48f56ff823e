package io.refstore.web.schedules;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import io.refstore.web.system.Problems;

/** No schedule has that name: a 404 problem ({@code schedule-not-found}). */
public class ScheduleNotFoundException extends ErrorResponseException {

	private static final long serialVersionUID = 1L;

	public ScheduleNotFoundException(String name) {
		super(HttpStatus.NOT_FOUND, Problems.problem(HttpStatus.NOT_FOUND, "schedule-not-found",
				"no schedule is named '" + Problems.printable(name) + "'", Map.of()), null);
	}

}
