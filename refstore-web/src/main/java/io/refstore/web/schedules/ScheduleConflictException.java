package io.refstore.web.schedules;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import io.refstore.web.system.Problems;

/**
 * The schedule cannot be created as asked, its name is taken: a 409 problem
 * ({@code schedule-exists}).
 */
public class ScheduleConflictException extends ErrorResponseException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param detail says which name is taken
	 */
	public ScheduleConflictException(String detail) {
		super(HttpStatus.CONFLICT,
				Problems.problem(HttpStatus.CONFLICT, "schedule-exists", Problems.escaped(detail), Map.of()), null);
	}

}
