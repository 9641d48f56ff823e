package io.refstore.web.schedules;

import org.springframework.stereotype.Component;

import io.refstore.web.console.ConsoleFormat;

/**
 * The repositories a schedule or campaign selects, in words, for the console's pages
 * ({@code @targets.words(kind, target)}): {@code demo.git}, {@code matching team/*},
 * {@code with more than 1,000 loose refs}.
 */
@Component("targets")
public class TargetWords {

	private final ConsoleFormat fmt;

	TargetWords(ConsoleFormat fmt) {
		this.fmt = fmt;
	}

	public String words(Schedule.TargetKind kind, String target) {
		return switch (kind) {
			case REPOSITORY -> target;
			case GLOB -> "matching " + target;
			case LOOSE_REFS_ABOVE -> "with more than " + countOf(target) + " loose refs";
			case LISTED -> target;
		};
	}

	private String countOf(String number) {
		try {
			return this.fmt.count(Long.parseLong(number));
		}
		catch (NumberFormatException ex) {
			return number;
		}
	}

}
