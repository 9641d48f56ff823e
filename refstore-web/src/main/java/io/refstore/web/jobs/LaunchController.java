package io.refstore.web.jobs;

import java.io.IOException;
import java.security.Principal;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import io.refstore.batch.api.DeleteCriteria;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.StoreStatistics;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.repos.BackupService;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;
import io.refstore.web.security.JobPolicy;
import io.refstore.web.system.InvalidRequestException;

/**
 * The launch forms: migration (or its dry run, a verification that changes nothing),
 * maintenance, a deletion plan, restore, rollback and an inventory. A refused parameter
 * shows the form again with the message on its field; a job already holding the
 * repository shows it as a form error; a launch redirects to the new execution's live
 * page.
 */
@ConsoleController
class LaunchController {

	static final String VIEWS_LAUNCH_FORM = "jobs/launchForm";

	/**
	 * Job parameter names as the batch module reports them, mapped to the form's fields.
	 */
	private static final Map<String, String> FIELDS = Map.ofEntries(Map.entry(JobParameterNames.REPOSITORY, "repo"),
			Map.entry(JobParameterNames.TARGET_FORMAT, "targetFormat"),
			Map.entry(JobParameterNames.CHUNK_SIZE, "chunkSize"), Map.entry(JobParameterNames.PREFIXES, "prefixes"),
			Map.entry(JobParameterNames.GLOBS, "globs"), Map.entry(JobParameterNames.EXCLUDES, "excludes"),
			Map.entry(JobParameterNames.MANIFEST, "manifest"), Map.entry(JobParameterNames.BACKUP, "backup"),
			Map.entry(JobParameterNames.REFLOGS, "reflogs"),
			Map.entry(JobParameterNames.THROTTLE_MILLIS, "throttleMillis"),
			Map.entry(JobParameterNames.OVERRIDE_PROTECTION, "overrideProtection"),
			Map.entry(JobParameterNames.OVERRIDE_REASON, "overrideReason"),
			Map.entry(JobParameterNames.NAMESPACES, "namespaces"),
			Map.entry(JobParameterNames.MERGED_INTO, "mergedInto"),
			Map.entry(JobParameterNames.OLDER_THAN, "olderThan"),
			Map.entry(JobParameterNames.NOT_UPDATED_SINCE, "notUpdatedSince"));

	private final JobService jobs;

	private final RoleHierarchy hierarchy;

	private final JobPolicy policy;

	private final RepoRegistry repos;

	private final BackupService backups;

	private final ServerGit serverGit;

	LaunchController(JobService jobs, RoleHierarchy hierarchy, JobPolicy policy, RepoRegistry repos,
			BackupService backups, ServerGit serverGit) {
		this.backups = backups;
		this.serverGit = serverGit;
		this.jobs = jobs;
		this.hierarchy = hierarchy;
		this.policy = policy;
		this.repos = repos;
	}

	/**
	 * The launch form, filled from the query: the repository, a backup or manifest to
	 * recover from, and for a deletion its selection and criteria (the ref browser's
	 * "Clean up" opens it with its filter).
	 */
	@GetMapping("/jobs/new/{kind}")
	String initLaunchForm(@PathVariable String kind, @RequestParam Map<String, String> query, Model model) {
		LaunchKind launch = allowed(kind);
		LaunchForm form = new LaunchForm();
		String repo = query.getOrDefault("repo", "");
		form.setRepo(repo);
		form.setBackup(query.getOrDefault("backup", ""));
		form.setManifest(query.getOrDefault("manifest", ""));
		StoreStatistics store = (launch == LaunchKind.MIGRATION) ? statistics(repo) : null;
		if (store != null) {
			migrationDefaults(store, form);
		}
		if (launch == LaunchKind.MIGRATION && !mayMigrate()) {
			form.setDryRun(true);
		}
		if (launch == LaunchKind.DELETION) {
			form.setChunkSize(1000);
			form.setPrefixes(query.getOrDefault("prefixes", ""));
			form.setGlobs(query.getOrDefault("globs", ""));
			form.setExcludes(query.getOrDefault("excludes", ""));
			form.setNamespaces(query.getOrDefault("namespaces", ""));
			form.setMergedInto(query.getOrDefault("mergedInto", ""));
			form.setOlderThan(query.getOrDefault("olderThan", ""));
			form.setNotUpdatedSince(query.getOrDefault("notUpdatedSince", ""));
		}
		model.addAttribute("launchForm", form);
		model.addAttribute("kind", launch);
		model.addAttribute("mayMigrate", mayMigrate());
		choices(launch, repo, model);
		preflight(launch, store, model);
		return VIEWS_LAUNCH_FORM;
	}

	/**
	 * What a migration's form tells before it runs: the repository's store now, and this
	 * server's git (which must read the target format).
	 */
	private void preflight(LaunchKind launch, StoreStatistics store, Model model) {
		if (launch == LaunchKind.MIGRATION) {
			model.addAttribute("store", store);
			this.serverGit.version().ifPresent((git) -> {
				model.addAttribute("serverGit", git.text());
				model.addAttribute("serverGitReadsReftable", git.readsReftable());
			});
		}
	}

	/**
	 * What a restore or a rollback of {@code repo} can be made from, to pick rather than
	 * type: its executed deletions' manifests, its backups. None for a repository that
	 * cannot be read (the launch says why).
	 */
	private void choices(LaunchKind launch, String repo, Model model) {
		if (repo == null || repo.isBlank()) {
			return;
		}
		try {
			if (launch == LaunchKind.ROLLBACK) {
				model.addAttribute("backups", this.backups.list(repo.strip()));
			}
			if (launch == LaunchKind.RESTORE) {
				model.addAttribute("deletions", this.jobs.executedDeletions(repo.strip()));
			}
		}
		catch (IOException | RuntimeException ex) {
			// no choices: the form takes a typed name, and the launch names what is wrong
		}
	}

	@PostMapping("/jobs/new/{kind}")
	String processLaunchForm(@PathVariable String kind, @ModelAttribute LaunchForm launchForm, BindingResult result,
			Principal principal, Model model, HttpServletResponse response) {
		LaunchKind launch = allowed(kind);
		model.addAttribute("kind", launch);
		model.addAttribute("mayMigrate", mayMigrate());
		choices(launch, launchForm.getRepo(), model);
		preflight(launch, (launch == LaunchKind.MIGRATION) ? statistics(launchForm.getRepo()) : null, model);
		if (result.hasErrors()) {
			return VIEWS_LAUNCH_FORM;
		}
		if (launch == LaunchKind.MIGRATION && !launchForm.isDryRun() && !launchForm.isReadersChecked()
				&& RefFormat.REFTABLE.configName().equals(launchForm.getTargetFormat().strip()) && mayMigrate()) {
			result.rejectValue("readersChecked", "confirm", "Confirm that every git opening this repository is "
					+ ServerGit.REFTABLE_SINCE[0] + "." + ServerGit.REFTABLE_SINCE[1]
					+ " or later: older ones cannot open it once its refs are in reftable. Or run the dry run first.");
			return VIEWS_LAUNCH_FORM;
		}
		if (launch.confirmed() && !launchForm.getRepo().strip().equals(launchForm.getConfirmRepository().strip())) {
			result.rejectValue("confirmRepository", "confirm",
					"Type the repository's name exactly as above to confirm: " + launchForm.getRepo().strip());
			return VIEWS_LAUNCH_FORM;
		}
		try {
			JobSummary job = launch(launch, launchForm, principal.getName());
			return "redirect:/jobs/" + job.executionId();
		}
		catch (InvalidRequestException ex) {
			ex.rejectIn(result, FIELDS::get);
		}
		catch (JobConflictException ex) {
			BusyRepository busy = BusyRepository.of(ex, launchForm.getRepo().strip(), this.jobs);
			result.reject("conflict", busy.sentence());
			model.addAttribute("busyJob", busy.runningJob());
		}
		catch (AccessDeniedException ex) {
			// only a form the role sees but with a choice it may not make gets here (a
			// real
			// migration by an OPERATOR): shown again as the role may send it, saying why
			response.setStatus(HttpStatus.FORBIDDEN.value());
			if (launch == LaunchKind.MIGRATION) {
				launchForm.setDryRun(true);
				result.reject("role", "Only an administrator may run a real migration. "
						+ "As an operator you may run its dry run, which verifies the store and changes nothing.");
			}
			else {
				result.reject("role", "Your role may not launch this job as it is set: it needs an administrator.");
			}
		}
		return VIEWS_LAUNCH_FORM;
	}

	/** Whether the user may run a real migration, not only its dry run. */
	private boolean mayMigrate() {
		return this.policy.allows(SecurityContextHolder.getContext().getAuthentication(), RefJobType.MIGRATE, Map.of());
	}

	private JobSummary launch(LaunchKind kind, LaunchForm form, String actor) {
		return switch (kind) {
			case MIGRATION ->
				form.isDryRun() ? this.jobs.verify(form.getRepo(), actor) : this.jobs.migrate(form.getRepo(),
						form.getTargetFormat(), form.isReflogs(), form.getChunkSize(), form.getThrottleMillis(), actor);
			case MAINTENANCE -> this.jobs.maintain(form.getRepo(), form.isForce(), actor);
			case DELETION -> this.jobs.planDeletion(form.getRepo(), JobParameterNames.list(form.getPrefixes()),
					JobParameterNames.list(form.getGlobs()), List.of(), JobParameterNames.list(form.getExcludes()),
					new DeleteCriteria(JobParameterNames.list(form.getNamespaces()), form.getMergedInto(),
							form.getOlderThan(), form.getNotUpdatedSince()),
					form.isOverrideProtection(), form.getOverrideReason(), actor);
			case RESTORE -> this.jobs.restore(form.getRepo(), form.getManifest(), actor);
			case ROLLBACK -> this.jobs.rollback(form.getRepo(), form.getBackup(), actor);
			case INVENTORY -> this.jobs.inventory(form.getRepo(), actor);
		};
	}

	/**
	 * The statistics of {@code repo}'s store; {@code null} for none given or one that
	 * cannot be read (the launch says why).
	 */
	private StoreStatistics statistics(String repo) {
		if (repo == null || repo.isBlank()) {
			return null;
		}
		try (OpenRepo open = this.repos.open(repo.strip())) {
			return open.store().statistics();
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * A migration's defaults for the repository: the other format as the target, and
	 * chunks of about a hundredth of its refs (100 to 100,000), so that the progress bar
	 * moves on a small repository too. A files store's count is its loose and packed
	 * refs; a reftable store's is estimated from its size (about 40 bytes a ref). A
	 * repository that cannot be read keeps the form's defaults; the launch says why.
	 */
	private static void migrationDefaults(StoreStatistics statistics, LaunchForm form) {
		boolean files = statistics.format() == RefFormat.FILES;
		form.setTargetFormat(files ? RefFormat.REFTABLE.configName() : RefFormat.FILES.configName());
		long refs = files ? statistics.looseRefs() + statistics.packedRefs() : statistics.bytes() / 40;
		form.setChunkSize((int) Math.max(100, Math.min(100_000, refs / 100)));
	}

	/**
	 * The form's kind, if the user's role may launch the least of its jobs; the service
	 * checks the job the form asks for on launch.
	 */
	private LaunchKind allowed(String path) {
		LaunchKind kind = LaunchKind.of(path);
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		ConsoleUser user = ConsoleUser.of(authentication, this.hierarchy);
		if (!this.policy.allows(authentication, kind.least(), kind.leastParameters())) {
			throw new AccessDeniedException("the role " + user.role() + " may not launch " + kind.path());
		}
		return kind;
	}

}
