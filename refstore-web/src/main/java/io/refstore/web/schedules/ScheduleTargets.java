package io.refstore.web.schedules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

import io.refstore.core.ref.Wildmatch;
import io.refstore.core.repo.InvalidRepositoryNameException;
import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoNotFoundException;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.system.InvalidRequestException;

/**
 * Turns a schedule's target into repository names: one name, the names a glob matches, or
 * the repositories whose {@code RefStore.statistics()} count more loose refs than a
 * threshold. Selections are evaluated at each fire, so a repository added later is
 * included. They span the fleet: this node's repositories by name, the other nodes' by
 * {@code <storage>/<name>} as their inventory last recorded them. Campaigns select their
 * repositories through it too. A glob is refstore's one glob, {@link Wildmatch}
 * ({@code *} within a path segment, {@code **} across segments), at most
 * {@link Wildmatch#MAX_PATTERN_BYTES} long: its cost per name is bounded. Thread-safe.
 */
@Component
public class ScheduleTargets {

	private final RepoRegistry registry;

	private final FleetJobs fleet;

	ScheduleTargets(RepoRegistry registry, FleetJobs fleet) {
		this.registry = registry;
		this.fleet = fleet;
	}

	/**
	 * Checks a target before it is stored.
	 * @return the target, trimmed
	 * @throws InvalidRequestException naming {@code target}
	 */
	public String check(Schedule.TargetKind kind, String target) {
		if (target == null || target.isBlank()) {
			throw new InvalidRequestException("target", target, "missing");
		}
		String text = target.trim();
		switch (kind) {
			case REPOSITORY -> {
				if (this.fleet.elsewhere(text).isPresent()) {
					// another node of the fleet holds it, and runs its jobs
					return text;
				}
				try (OpenRepo repo = this.registry.open(text)) {
					return repo.name();
				}
				catch (RepoNotFoundException | InvalidRepositoryNameException ex) {
					throw new InvalidRequestException("target", text, "no repository of that name");
				}
				catch (IOException ex) {
					throw new InvalidRequestException("target", text, "unreadable: " + ex.getMessage());
				}
			}
			case GLOB -> {
				matcher(text);
				return text;
			}
			case LOOSE_REFS_ABOVE -> {
				try {
					if (Long.parseLong(text) >= 0) {
						return text;
					}
				}
				catch (NumberFormatException ex) {
					// refused below
				}
				throw new InvalidRequestException("target", text, "a loose-ref threshold is a number >= 0");
			}
			case LISTED -> throw new InvalidRequestException("targetKind", kind.name(),
					"only the dashboard's Maintain all due lists its repositories; choose REPOSITORY, GLOB or"
							+ " LOOSE_REFS_ABOVE");
			default -> throw new IllegalStateException(kind.name());
		}
	}

	private static byte[] matcher(String glob) {
		byte[] pattern = glob.getBytes(StandardCharsets.UTF_8);
		String problem = Wildmatch.inputProblem(pattern);
		if (problem != null) {
			throw new InvalidRequestException("target", glob, "not a glob: " + problem);
		}
		return pattern;
	}

	private static boolean matches(byte[] glob, String name) {
		byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
		return Wildmatch.matches(glob, bytes, bytes.length);
	}

	/** The repositories {@code schedule} selects now, sorted by name. */
	List<String> select(Schedule schedule) {
		return select(schedule.targetKind(), schedule.target());
	}

	/**
	 * The repositories a checked target selects now, sorted by name.
	 * @param target a value {@link #check} returned
	 * @throws java.io.UncheckedIOException if the repositories cannot be read
	 */
	public List<String> select(Schedule.TargetKind kind, String target) {
		try {
			return switch (kind) {
				case REPOSITORY -> List.of(target);
				case GLOB -> {
					byte[] glob = matcher(target);
					List<String> names = new ArrayList<>(
							this.registry.names().stream().filter((name) -> matches(glob, name)).toList());
					this.fleet.elsewhereRepositories()
						.stream()
						.filter((repository) -> matches(glob, repository.path()))
						.forEach((repository) -> names.add(repository.name()));
					yield names;
				}
				case LOOSE_REFS_ABOVE -> {
					List<String> names = looseRefsAbove(Long.parseLong(target));
					this.fleet.elsewhereRepositories()
						.stream()
						.filter((repository) -> repository.looseRefs() != null
								&& repository.looseRefs() > Long.parseLong(target))
						.forEach((repository) -> names.add(repository.name()));
					yield names;
				}
				case LISTED -> throw new IllegalArgumentException("a listed target selects nothing by itself");
			};
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private List<String> looseRefsAbove(long threshold) throws IOException {
		List<String> out = new ArrayList<>();
		for (String name : this.registry.names()) {
			try (OpenRepo repo = this.registry.open(name)) {
				if (repo.store().statistics().looseRefs() > threshold) {
					out.add(name);
				}
			}
		}
		return out;
	}

}
