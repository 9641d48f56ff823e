package io.refstore.web.fleet;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;

import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.core.repo.RepositoryPaths;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;

/**
 * Launches and restarts jobs where their repository is: here, through {@link RefJobs}, or
 * on the node of the fleet that holds it, through {@link JobHandoff}. Schedules,
 * campaigns and the API all go through it. Thread-safe.
 */
@Component
public class FleetJobs {

	private final RefJobs jobs;

	private final RepoRegistry registry;

	private final FleetService fleet;

	private final ObjectProvider<JobHandoff> handoff;

	FleetJobs(RefJobs jobs, RepoRegistry registry, FleetService fleet, ObjectProvider<JobHandoff> handoff) {
		this.jobs = jobs;
		this.registry = registry;
		this.fleet = fleet;
		this.handoff = handoff;
	}

	/**
	 * The storage every repository of the fleet is in, when there is only one (this
	 * node's), else {@code null}: then a repository is named by its path alone, as the
	 * dashboard names it, and {@code default/a.git} is {@code a.git}.
	 */
	public String onlyStorage() {
		Set<String> here = this.registry.storages().keySet();
		if (here.size() != 1) {
			return null;
		}
		String only = here.iterator().next();
		return this.fleet.storageNames().stream().allMatch(only::equals) ? only : null;
	}

	/**
	 * The one name of {@code repository}, as the dashboard and the Fleet page show it:
	 * while the fleet has one storage ({@link #onlyStorage()}), its path alone
	 * ({@code default/a.git} is {@code a.git}); with several, qualified by the storage
	 * holding it ({@code a.git} is {@code default-2/a.git}, found here or in the fleet's
	 * inventory); else as given (no storage holds it, or several do). Launches record it,
	 * so that a job's history has one name per repository whichever the caller used, and
	 * the history's filter looks it up by it.
	 */
	public String canonical(String repository) {
		if (repository == null || repository.isBlank()) {
			return repository;
		}
		String only = onlyStorage();
		if (only == null) {
			return qualified(repository);
		}
		String prefix = only + "/";
		return (repository.startsWith(prefix) && repository.length() > prefix.length())
				? repository.substring(prefix.length()) : repository;
	}

	/** {@code <storage>/<path>} of the one storage holding {@code repository}. */
	private String qualified(String repository) {
		try (OpenRepo repo = this.registry.open(repository)) {
			Optional<RepositoryPaths.Located> here = this.registry.locate(repo);
			if (here.isPresent()) {
				return here.get().storage() + "/" + here.get().name();
			}
		}
		catch (IOException | RuntimeException ex) {
			// not on this node, or a malformed name: the fleet's inventory may know it
		}
		List<FleetRepository> found = this.fleet.locate(repository);
		return (found.size() == 1) ? found.get(0).name() : repository;
	}

	/**
	 * The node that runs the jobs of {@code repository}: this one if it holds it (or no
	 * node does, which the launch here then says, or jobs cannot be handed off: H2), else
	 * the node of the fleet that holds it.
	 * @throws org.springframework.web.ErrorResponseException 503 if that node is down
	 */
	public String nodeOf(String repository) {
		return elsewhere(repository).orElse(this.fleet.node());
	}

	/** The other node that runs the jobs of {@code repository}, if not this one. */
	public Optional<String> elsewhere(String repository) {
		if (repository == null || this.handoff.getIfAvailable() == null) {
			return Optional.empty();
		}
		try {
			if (this.registry.holds(repository)) {
				return Optional.empty();
			}
		}
		catch (IOException | IllegalArgumentException ex) {
			// a malformed name: the launch here refuses it, naming it, and audits that
			return Optional.empty();
		}
		return this.fleet.jobNode(repository);
	}

	/**
	 * Whether the node holding {@code repository} is another node of the fleet that is
	 * down now: its jobs wait for it (it restarts what its stop interrupted when it
	 * returns).
	 */
	public boolean nodeDown(String repository) {
		try {
			elsewhere(repository);
			return false;
		}
		catch (ErrorResponseException ex) {
			return ex.getStatusCode().value() == HttpStatus.SERVICE_UNAVAILABLE.value();
		}
	}

	/**
	 * The repositories of the fleet's other nodes, as their inventories last recorded
	 * them; none on H2, where a node is alone.
	 */
	public List<FleetRepository> elsewhereRepositories() {
		return (this.handoff.getIfAvailable() == null) ? List.of() : this.fleet.elsewhere();
	}

	/**
	 * Launches a job on the node of its repository, as
	 * {@link RefJobs#launch(RefJobType, Map, String)} does here.
	 * @param given by {@link JobParameterNames} key, the repository included (recorded by
	 * its {@link #canonical} name)
	 */
	public JobSummary launch(RefJobType type, Map<String, String> given, String actor) {
		String repository = canonical(given.get(JobParameterNames.REPOSITORY));
		Map<String, String> parameters = new LinkedHashMap<>(given);
		if (repository != null) {
			parameters.put(JobParameterNames.REPOSITORY, repository);
		}
		Optional<String> node = elsewhere(repository);
		if (node.isEmpty()) {
			return this.jobs.launch(type, parameters, actor);
		}
		Map<String, String> rest = new LinkedHashMap<>(parameters);
		rest.remove(JobParameterNames.REPOSITORY);
		return this.handoff.getObject().launch(node.get(), type, repository, rest, actor);
	}

	/**
	 * Launches a job on the node of {@code repository}: here as
	 * {@link RefJobs#launch(RefJobType, String, Supplier, String)} does (a refusal while
	 * making the parameters is published as the launch's); on another node with the
	 * parameters made here first, whose refusal is thrown.
	 * @param given the repository (recorded by its {@link #canonical} name)
	 * @param parameters makes the typed parameters, which check themselves
	 */
	public JobSummary launch(RefJobType type, String given, Supplier<? extends RefJobParameters> parameters,
			String actor) {
		String repository = canonical(given);
		if (elsewhere(repository).isEmpty()) {
			return this.jobs.launch(type, repository, parameters, actor);
		}
		Map<String, String> typed = new LinkedHashMap<>(parameters.get().toMap());
		typed.put(JobParameterNames.REPOSITORY, repository);
		return launch(type, typed, actor);
	}

	/** Restarts an execution on the node of its repository. */
	public JobSummary restart(long executionId, String repository, String actor) {
		Optional<String> node = elsewhere(repository);
		if (node.isEmpty()) {
			return this.jobs.restart(executionId, actor);
		}
		return this.handoff.getObject().restart(node.get(), executionId, repository, actor);
	}

}
