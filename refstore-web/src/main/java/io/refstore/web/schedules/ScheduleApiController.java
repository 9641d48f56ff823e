package io.refstore.web.schedules;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

import io.refstore.web.system.InvalidRequestException;

/**
 * {@code /api/schedules}: list, read (with the newest runs), create, replace, delete,
 * pause, resume and run now ({@code POST /api/schedules/{name}:run}). VIEWER reads;
 * OPERATOR manages; ADMIN only for destructive job types ({@link ScheduleService}).
 * Refusals are problem+json naming the field.
 */
@RestController
@RequestMapping("/api/schedules")
class ScheduleApiController {

	private final ScheduleService schedules;

	ScheduleApiController(ScheduleService schedules) {
		this.schedules = schedules;
	}

	/** The most schedules one page lists. */
	static final int MAX_LIMIT = 1000;

	/**
	 * A page of schedules by name: {@code limit} (1 to {@value #MAX_LIMIT}, default 100)
	 * after the one named {@code after}; {@code Link: rel="next"} names the next page.
	 */
	@GetMapping
	ResponseEntity<List<Schedule>> list(@RequestParam(required = false) String after,
			@RequestParam(defaultValue = "100") int limit) {
		if (limit < 1 || limit > MAX_LIMIT) {
			throw new InvalidRequestException("limit", Integer.toString(limit), "it must be from 1 to " + MAX_LIMIT);
		}
		List<Schedule> page = this.schedules.page(after, limit + 1);
		if (page.size() <= limit) {
			return ResponseEntity.ok(page);
		}
		page = page.subList(0, limit);
		String next = "/api/schedules?after=" + UriUtils.encodeQueryParam(page.get(limit - 1).name(), "UTF-8")
				+ "&limit=" + limit;
		return ResponseEntity.ok().header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"").body(page);
	}

	@GetMapping("/{name}")
	Map<String, Object> show(@PathVariable String name) {
		Schedule schedule = this.schedules.find(name).orElseThrow(() -> new ScheduleNotFoundException(name));
		return Map.of("schedule", schedule, "runs", this.schedules.runs(name, 20));
	}

	@PostMapping
	ResponseEntity<Schedule> create(@RequestBody ScheduleRequest request, Authentication actor) {
		Schedule created = this.schedules.create(request, actor);
		URI location = URI.create("/api/schedules/" + UriUtils.encodePathSegment(created.name(), "UTF-8"));
		return ResponseEntity.created(location).body(created);
	}

	@PutMapping("/{name}")
	Schedule replace(@PathVariable String name, @RequestBody ScheduleRequest request, Authentication actor) {
		return this.schedules.replace(name, request, actor);
	}

	@DeleteMapping("/{name}")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void delete(@PathVariable String name, Authentication actor) {
		this.schedules.delete(name, actor);
	}

	@PostMapping("/{name}/pause")
	Schedule pause(@PathVariable String name, Authentication actor) {
		return this.schedules.setPaused(name, true, actor);
	}

	@PostMapping("/{name}/resume")
	Schedule resume(@PathVariable String name, Authentication actor) {
		return this.schedules.setPaused(name, false, actor);
	}

	/**
	 * Fires the schedule once, now, as its cron would: 202 with the fire's runs as they
	 * stand (launched with their execution, queued for their turn, or why not); the jobs
	 * go on after the answer. The roles that may change the schedule may.
	 */
	@PostMapping("/{name}:run")
	@ResponseStatus(HttpStatus.ACCEPTED)
	ScheduleFire run(@PathVariable String name, Authentication actor) {
		return this.schedules.runNow(name, actor);
	}

}
