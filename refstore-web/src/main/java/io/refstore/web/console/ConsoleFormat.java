package io.refstore.web.console;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.stereotype.Component;
import org.springframework.web.util.UriUtils;

import io.refstore.batch.api.RefJobType;

/**
 * Numbers, sizes, durations and times as the console's templates print them
 * ({@code ${@fmt.bytes(n)}}). Stateless and thread-safe.
 */
@Component("fmt")
public class ConsoleFormat {

	/** The zone of the server's local times (Spring Batch's, a backup's name). */
	private final ZoneId serverZone;

	/** Local times in the server's zone. */
	public ConsoleFormat() {
		this(ZoneId.systemDefault());
	}

	/** Local times in {@code serverZone}. */
	ConsoleFormat(ZoneId serverZone) {
		this.serverZone = serverZone;
	}

	private static final String[] UNITS = { "B", "KiB", "MiB", "GiB", "TiB" };

	/**
	 * How the server writes a time: in UTC with the zone named. The page's script
	 * ({@code console/time.js}) rewrites it into the viewer's own zone, with that zone
	 * named, so every time on every page reads the same way.
	 */
	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	/** A whole number a job result holds as text; 0 for none or not a number. */
	public long number(String text) {
		try {
			return (text != null) ? Long.parseLong(text.strip()) : 0;
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	/**
	 * A path-like name's components, each but the last with its {@code /}:
	 * {@code [refs/, heads/, topic]}. A template writes a {@code <wbr>} between them, so
	 * that a name in a narrow column breaks after a slash, never inside a component.
	 */
	public List<String> pathParts(String name) {
		if (name == null || name.isEmpty()) {
			return List.of();
		}
		List<String> parts = new ArrayList<>();
		int start = 0;
		for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', start)) {
			parts.add(name.substring(start, slash + 1));
			start = slash + 1;
		}
		if (start < name.length()) {
			parts.add(name.substring(start));
		}
		return parts;
	}

	/** A count with thousands separators: {@code 1,000,000}. */
	public String count(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

	/**
	 * Where a page is, as a pager says it: {@code 101–200 of 11,111} for a page of
	 * {@code shown} items after {@code before} others; empty for a page that shows none.
	 */
	public String range(long before, long shown, long total) {
		return (shown == 0) ? "" : String.format(Locale.ROOT, "%,d–%,d of %,d", before + 1, before + shown, total);
	}

	/**
	 * A change of a count, with its sign and thousands separators: {@code +1,200},
	 * {@code -3}.
	 */
	public String signedCount(long value) {
		return String.format(Locale.ROOT, "%+,d", value);
	}

	/**
	 * A count with the word it counts, singular for one: {@code 1 protected ref},
	 * {@code 2 protected refs}, {@code 18,373 refs}. Takes a number or a whole number as
	 * text (a job result); text that is none counts as 0.
	 */
	public String plural(Object count, String one, String many) {
		long value = (count instanceof Number number) ? number.longValue()
				: number((count != null) ? count.toString() : null);
		return count(value) + " " + ((value == 1) ? one : many);
	}

	/**
	 * A job's or step's status in words, the same on every page: {@code STARTED} (Spring
	 * Batch's word for a run under way) is {@code Running}, the others as {@link #words}:
	 * {@code Starting}, {@code Stopping}, {@code Abandoned}.
	 */
	public String jobStatus(Object status) {
		return jobStatusInWords((status != null) ? status.toString() : null);
	}

	/** {@link #jobStatus}, for code outside the templates. */
	public static String jobStatusInWords(String status) {
		return "STARTED".equals(status) ? "Running" : inWords(status);
	}

	/**
	 * A size in binary units with one decimal: {@code 12.3 MiB}; plain bytes below 1 KiB.
	 */
	public String bytes(long value) {
		if (value < 1024) {
			return value + " B";
		}
		double scaled = value;
		int unit = 0;
		while (scaled >= 1024 && unit < UNITS.length - 1) {
			scaled /= 1024;
			unit++;
		}
		return String.format(Locale.ROOT, "%.1f %s", scaled, UNITS[unit]);
	}

	/**
	 * A duration as {@code 1h 02m 03s}, {@code 2m 03s} or {@code 4.2s}; an empty string
	 * for {@code null}.
	 */
	public String duration(Duration duration) {
		if (duration == null) {
			return "";
		}
		long seconds = duration.getSeconds();
		if (seconds < 60) {
			return String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
		}
		if (seconds < 3600) {
			return String.format(Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
		}
		return String.format(Locale.ROOT, "%dh %02dm %02ds", seconds / 3600, (seconds / 60) % 60, seconds % 60);
	}

	/**
	 * A rate of {@code unit} per second, without decimals above 10:
	 * {@code 12,345 refs/s}.
	 */
	public String rate(double perSecond, String unit) {
		if (perSecond < 10) {
			return String.format(Locale.ROOT, "%.1f %s/s", perSecond, unit);
		}
		return String.format(Locale.ROOT, "%,d %s/s", Math.round(perSecond), unit);
	}

	/**
	 * What a job step counts: reflog entries for the reflog steps, journal entries for
	 * the journal's retention, refs for the others.
	 */
	public String stepUnit(String step) {
		return (step != null && (step.contains("Reflog") || step.contains("Journal"))) ? "entries" : "refs";
	}

	/**
	 * A point in time as {@code 2026-12-01 13:44:11 UTC}; an empty string for
	 * {@code null}. Takes an {@link Instant}, an offset or zoned date-time, a local
	 * date-time (Spring Batch's, in the server's zone) or such a value's ISO text.
	 */
	public String time(Object value) {
		Instant instant = instant(value);
		return (instant == null) ? "" : TIME.format(instant);
	}

	/**
	 * The same point in time as ISO-8601 in UTC, for a {@code <time datetime>} attribute;
	 * an empty string for {@code null}.
	 */
	public String iso(Object value) {
		Instant instant = instant(value);
		return (instant == null) ? "" : instant.toString();
	}

	/**
	 * The length of time from {@code start} to {@code end} (to now if {@code end} is
	 * {@code null}), as {@link #duration(Duration)} writes it; an empty string if
	 * {@code start} is {@code null}.
	 */
	public String between(Object start, Object end) {
		Instant from = instant(start);
		if (from == null) {
			return "";
		}
		Instant to = (end != null) ? instant(end) : Instant.now();
		return duration(Duration.between(from, to));
	}

	private Instant instant(Object value) {
		if (value == null) {
			return null;
		}
		if (value instanceof Instant instant) {
			return instant;
		}
		if (value instanceof OffsetDateTime offset) {
			return offset.toInstant();
		}
		if (value instanceof ZonedDateTime zoned) {
			return zoned.toInstant();
		}
		if (value instanceof LocalDateTime local) {
			return local.atZone(this.serverZone).toInstant();
		}
		String text = value.toString();
		try {
			return OffsetDateTime.parse(text).toInstant();
		}
		catch (DateTimeParseException ex) {
			return LocalDateTime.parse(text).atZone(this.serverZone).toInstant();
		}
	}

	/** A percentage without decimals, from a fraction in {@code [0, 1]}. */
	public String percent(double fraction) {
		return Math.round(Math.max(0, Math.min(1, fraction)) * 100) + "%";
	}

	/** A job type in words: {@code Migration}, {@code Deletion}. */
	public String jobType(RefJobType type) {
		return jobTypeInWords(type);
	}

	/**
	 * Why a job cannot start on a repository another job is changing, in words: the job
	 * that holds it (by execution id, and its type when known) and what to do; never the
	 * lease, its instance or the repository's path.
	 * @param repository the repository's name, or {@code null} for "this repository"
	 * @param executionId the job holding it, or {@code null} while that one is being
	 * launched
	 * @param type that job's type, or {@code null} if unknown
	 */
	public static String busyRepository(String repository, Long executionId, RefJobType type) {
		String which = (repository != null) ? repository : "this repository";
		if (executionId == null) {
			return "Another job is being launched on " + which + " right now: try again in a moment.";
		}
		return "Job " + executionId + ((type != null) ? " (" + jobTypeInWords(type) + ")" : "") + " is changing "
				+ which + " now, and one job at a time may: wait for it to end, or stop it, then try again.";
	}

	/** {@link #jobType}, for code outside the templates. */
	public static String jobTypeInWords(RefJobType type) {
		if (type == null) {
			return "Unknown job";
		}
		return switch (type) {
			case MIGRATE -> "Migration";
			case ROLLBACK -> "Rollback";
			case DELETE -> "Deletion";
			case RESTORE -> "Restore";
			case REWIND -> "Point-in-time restore";
			case MAINTAIN -> "Maintenance";
			case VERIFY -> "Verification";
			case INVENTORY -> "Inventory";
			case JOURNAL_RETENTION -> "Journal retention";
		};
	}

	/**
	 * A constant in words: {@code SKIPPED_BUSY} is {@code Skipped busy}; an empty string
	 * for {@code null}.
	 */
	public String words(Object constant) {
		return inWords((constant != null) ? constant.toString() : null);
	}

	/**
	 * A constant or a Spring bean name in words: {@code SKIPPED_BUSY} is
	 * {@code Skipped busy}, {@code copyRefsStep} is {@code Copy refs},
	 * {@code migrateRefsJob} is {@code Migrate refs}; an empty string for {@code null}.
	 */
	public static String inWords(String name) {
		if (name == null || name.isEmpty()) {
			return "";
		}
		String stem = name.replaceFirst("(Step|Job)$", "");
		boolean constant = stem.equals(stem.toUpperCase(Locale.ROOT));
		StringBuilder words = new StringBuilder(stem.length() + 4);
		for (int i = 0; i < stem.length(); i++) {
			char c = stem.charAt(i);
			if (c == '_') {
				words.append(' ');
			}
			else if (i == 0) {
				words.append(Character.toUpperCase(c));
			}
			else if (constant) {
				words.append(Character.toLowerCase(c));
			}
			else if (Character.isUpperCase(c)) {
				words.append(' ').append(Character.toLowerCase(c));
			}
			else {
				words.append(c);
			}
		}
		return words.toString();
	}

	/** Job parameters as {@code key=value} lines, or {@code (none)}. */
	public String parameters(Map<String, ?> parameters) {
		if (parameters == null || parameters.isEmpty()) {
			return "(none)";
		}
		return parameters.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + "=" + entry.getValue())
			.collect(Collectors.joining("\n"));
	}

	/**
	 * The job execution an audit entry's target names ({@code migrateRefsJob #12} is 12),
	 * or {@code null}.
	 */
	public Long jobOf(String target) {
		int hash = (target != null) ? target.lastIndexOf(" #") : -1;
		if (hash < 0) {
			return null;
		}
		try {
			return Long.valueOf(target.substring(hash + 2));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * Where an audit entry's target is shown, or {@code null}: a job's page
	 * ({@code migrateRefsJob #12}), a campaign's, a schedule's (unless it was deleted).
	 */
	public String auditLink(String action, String target) {
		Long job = jobOf(target);
		if (job != null) {
			return "/jobs/" + job;
		}
		if (target == null || action == null) {
			return null;
		}
		if (action.startsWith("campaign.") && target.chars().allMatch(Character::isDigit) && !target.isEmpty()) {
			return "/campaigns/" + target;
		}
		if (action.startsWith("schedule.") && !action.equals("schedule.delete")) {
			return "/schedules/" + UriUtils.encodePathSegment(target, StandardCharsets.UTF_8) + "/edit";
		}
		return null;
	}

}
