package io.refstore.web.branches;

import java.io.IOException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.ui.Model;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import io.refstore.batch.api.DeleteCriteria;
import io.refstore.batch.api.JobConflictException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.console.ConsoleFormat;
import io.refstore.web.console.ConsoleUser;
import io.refstore.web.jobs.JobService;
import io.refstore.web.journal.JournalService;
import io.refstore.web.refs.BatchResult;
import io.refstore.web.refs.BranchList;
import io.refstore.web.refs.BranchRow;
import io.refstore.web.refs.BranchService;
import io.refstore.web.refs.MergedBranches;
import io.refstore.web.refs.RefWriteService;
import io.refstore.web.system.InvalidRequestException;
import io.refstore.web.system.Redaction;

/**
 * A repository's Branches view, as GitLab's Branches page and GitHub's branches view have
 * it: Active, Stale and All tabs with their counts, a search as you type (htmx,
 * debounced; a plain GET form without JavaScript), orders by name and by last commit,
 * pages of {@value BranchService#PAGE_SIZE}, and per branch its last commit, whether
 * {@code HEAD}'s branch has merged it, how far it is ahead and behind, and whether it is
 * protected ({@link BranchService}).
 *
 * <p>
 * What a role is offered is what it can complete: a VIEWER reads; a role that may plan
 * deletions (OPERATOR) selects branches and plans their deletion, or plans "Delete merged
 * branches", each a {@code deleteRefsJob} plan (by exact names, or by the criteria merged
 * into {@code HEAD}'s branch under {@code refs/heads/}) whose page shows what it takes
 * and asks for the typed count before anything goes; an ADMIN also deletes one branch
 * after a confirmation page (a compare-and-swap on the value it showed, audited by
 * {@link RefWriteService}) and restores deleted branches. The branch {@code HEAD} names
 * and protected branches are never offered for deletion, and their rows say why. Every
 * POST checks the role itself, so a forged one is a 403 that changes nothing.
 *
 * <p>
 * Deleted branches come back where they were: the view lists the branches the journal saw
 * deleted (with Restore, from the journal) and the recent deletion jobs of the repository
 * (with their restore, from the job's manifest), and a branch deleted here gets a Restore
 * at its old value on the next page.
 */
@ConsoleController
class BranchesController {

	static final String VIEWS_BRANCHES = "branches/branches";

	static final String VIEWS_BRANCH_LIST = "branches/branches :: list";

	static final String VIEWS_DELETE_BRANCH = "branches/deleteBranch";

	static final String VIEWS_DELETE_MERGED = "branches/deleteMerged";

	/**
	 * The longest list of names one plan takes, in characters with their commas: a job
	 * parameter holds 2,500.
	 */
	static final int MAX_PLANNED_NAMES = 2000;

	private static final String REDIRECT_BRANCHES = "redirect:/repo/branches";

	private final BranchService branches;

	private final RefWriteService writes;

	private final JobService jobs;

	private final RecentlyDeleted recentlyDeleted;

	private final JournalService journal;

	BranchesController(BranchService branches, RefWriteService writes, JobService jobs, RecentlyDeleted recentlyDeleted,
			JournalService journal) {
		this.branches = branches;
		this.writes = writes;
		this.jobs = jobs;
		this.recentlyDeleted = recentlyDeleted;
		this.journal = journal;
	}

	/**
	 * The view; to htmx's search (the request names {@code branch-list} as its target)
	 * only the list, tabs and pager included.
	 */
	@GetMapping("/repo/branches")
	String showBranches(@RequestParam String name, @RequestParam(defaultValue = "all") String tab,
			@RequestParam(defaultValue = "") String q, @RequestParam(defaultValue = "newest") String sort,
			@RequestParam(defaultValue = "1") int page,
			@RequestHeader(name = "HX-Target", required = false) String hxTarget,
			@ModelAttribute("consoleUser") ConsoleUser user, Model model, HttpServletResponse response)
			throws IOException {
		BranchService.Tab shownTab = BranchService.Tab.of(tab);
		BranchService.Sort order = BranchService.Sort.of(sort);
		String query = q.strip();
		BranchList list = this.branches.list(name, shownTab, query, order, page);
		response.addHeader(HttpHeaders.VARY, "HX-Target");
		model.addAttribute("repoName", name);
		model.addAttribute("list", list);
		model.addAttribute("tab", shownTab.word());
		model.addAttribute("q", query);
		model.addAttribute("sort", order.word());
		model.addAttribute("mayPlan", mayPlan(user));
		if ("branch-list".equals(hxTarget)) {
			return VIEWS_BRANCH_LIST;
		}
		if (mayPlan(user)) {
			model.addAttribute("merged", this.branches.merged(name));
		}
		model.addAttribute("recentlyDeleted", this.recentlyDeleted.of(name));
		return VIEWS_BRANCHES;
	}

	/**
	 * The confirmation before one branch is deleted: its last commit, whether it is
	 * merged (and what is lost if not), and the button for an ADMIN, or why there is
	 * none.
	 */
	@GetMapping("/repo/branches/delete")
	String initDeleteBranch(@RequestParam String name, @RequestParam String branch, Model model) throws IOException {
		model.addAttribute("repoName", name);
		model.addAttribute("branch", this.branches.branch(name, branch));
		return VIEWS_DELETE_BRANCH;
	}

	/**
	 * Deletes one branch if it still holds the value its confirmation showed, and offers
	 * its restore at that value.
	 */
	@PostMapping("/repo/branches/delete")
	String processDeleteBranch(@RequestParam String name, @RequestParam String branch,
			@RequestParam(defaultValue = "") String expected, @ModelAttribute("consoleUser") ConsoleUser user,
			RedirectAttributes redirect) throws IOException {
		requireAdmin(user, "delete branches");
		BranchService.checkBranch("branch", branch);
		redirect.addAttribute("name", name);
		String kept = this.branches.protection(name, branch);
		if (kept != null) {
			redirect.addFlashAttribute("problem", "Nothing was deleted: " + branch
					+ (kept.equals("HEAD") ? " is the branch HEAD names." : " is protected by " + kept + "."));
			return REDIRECT_BRANCHES;
		}
		if (expected.isBlank()) {
			throw new InvalidRequestException("expected", expected,
					"it is required: the value the branch held when its deletion was confirmed");
		}
		try {
			this.writes.delete(name, branch, expected);
		}
		catch (ErrorResponseException ex) {
			redirect.addFlashAttribute("problem", "Nothing was deleted: " + ex.getBody().getDetail());
			return REDIRECT_BRANCHES;
		}
		redirect.addFlashAttribute("message", "Deleted " + branch + ".");
		// the Restore the next page offers, at the value the branch held
		redirect.addFlashAttribute("deletedBranch", branch);
		redirect.addFlashAttribute("deletedValue", expected);
		return REDIRECT_BRANCHES;
	}

	/**
	 * Creates a branch deleted here again at the value it held, if nothing took its name
	 * since.
	 */
	@PostMapping("/repo/branches/recreate")
	String processRecreate(@RequestParam String name, @RequestParam String branch, @RequestParam String value,
			@ModelAttribute("consoleUser") ConsoleUser user, RedirectAttributes redirect) throws IOException {
		requireAdmin(user, "restore branches");
		BranchService.checkBranch("branch", branch);
		redirect.addAttribute("name", name);
		try {
			this.writes.put(name, branch, value, RefWriteService.MUST_NOT_EXIST);
			redirect.addFlashAttribute("message", "Restored " + branch + ".");
		}
		catch (ErrorResponseException ex) {
			redirect.addFlashAttribute("problem", "Nothing was restored: " + ex.getBody().getDetail());
		}
		return REDIRECT_BRANCHES;
	}

	/** Restores a branch the journal saw deleted, at the last value it knows. */
	@PostMapping("/repo/branches/restore")
	String processRestore(@RequestParam String name, @RequestParam String branch,
			@ModelAttribute("consoleUser") ConsoleUser user, RedirectAttributes redirect) throws IOException {
		requireAdmin(user, "restore branches");
		BranchService.checkBranch("branch", branch);
		redirect.addAttribute("name", name);
		try {
			BatchResult result = this.journal.restore(name, List.of(branch));
			redirect.addFlashAttribute("message", "Restored " + result.results().get(0).ref() + ".");
		}
		catch (ErrorResponseException ex) {
			redirect.addFlashAttribute("problem", "Nothing was restored: " + ex.getBody().getDetail());
		}
		return REDIRECT_BRANCHES;
	}

	/**
	 * Restores one branch a deletion job deleted, from the job's manifest, where the view
	 * lists it: a restore job of that name alone, whose page it goes to; refused here,
	 * changing nothing, if the branch exists again (the job refuses it too if it comes
	 * back before the job writes it).
	 */
	@PostMapping("/repo/branches/restore-from-job")
	String processRestoreFromJob(@RequestParam String name, @RequestParam long job, @RequestParam String branch,
			@ModelAttribute("consoleUser") ConsoleUser user, Principal principal, RedirectAttributes redirect)
			throws IOException {
		if (!user.mayRun(RefJobType.RESTORE, Map.of())) {
			throw new AccessDeniedException("the role " + user.role() + " may not restore branches");
		}
		BranchService.checkBranch("branch", branch);
		try {
			JobSummary restore = this.recentlyDeleted.restoreBranch(name, job, branch, principal.getName());
			redirect.addFlashAttribute("message", "Restoring " + branch + " from the manifest of job " + job + ".");
			return "redirect:/jobs/" + restore.executionId();
		}
		catch (RecentlyDeleted.Refused ex) {
			redirect.addFlashAttribute("problem", "Nothing was restored: " + ex.getMessage());
		}
		catch (JobConflictException ex) {
			redirect.addFlashAttribute("problem", ConsoleFormat.busyRepository(name, ex.executionId(), null));
			redirect.addFlashAttribute("problemJob", ex.executionId());
		}
		catch (InvalidRequestException ex) {
			redirect.addFlashAttribute("problem", "Nothing was restored: " + Redaction.paths(ex.getMessage()));
		}
		return back(name, redirect);
	}

	/**
	 * Plans the deletion of the branches selected, by their exact names, and shows the
	 * plan: nothing is deleted until its count is typed there.
	 */
	@PostMapping("/repo/branches/plan")
	String processPlanSelected(@RequestParam String name,
			@RequestParam(name = "branch", required = false) List<String> selected,
			@ModelAttribute("consoleUser") ConsoleUser user, Principal principal, RedirectAttributes redirect) {
		requirePlanner(user);
		List<String> names = new ArrayList<>(new LinkedHashSet<>((selected != null) ? selected : List.of()));
		if (names.isEmpty()) {
			redirect.addFlashAttribute("problem", "Select at least one branch to plan its deletion.");
			return back(name, redirect);
		}
		int length = -1;
		for (String branch : names) {
			BranchService.checkBranch("branch", branch);
			if (branch.contains(",")) {
				redirect.addFlashAttribute("problem", "Nothing was planned: " + branch
						+ " holds a comma, which a plan's list of names cannot: plan it from the deletion form.");
				return back(name, redirect);
			}
			length += branch.length() + 1;
		}
		if (length > MAX_PLANNED_NAMES) {
			redirect.addFlashAttribute("problem",
					String.format(Locale.ROOT,
							"Nothing was planned: the names selected take %,d characters and a plan takes at most %,d."
									+ " Select fewer branches.",
							length, MAX_PLANNED_NAMES));
			return back(name, redirect);
		}
		return plan(name, redirect, () -> this.jobs.planDeletion(name, List.of(), List.of(), names, List.of(),
				DeleteCriteria.NONE, false, null, principal.getName()));
	}

	/**
	 * The confirmation before "Delete merged branches" plans: how many branches, which
	 * (the first of them), into which branch, and what stays.
	 */
	@GetMapping("/repo/branches/merged")
	String initDeleteMerged(@RequestParam String name, @ModelAttribute("consoleUser") ConsoleUser user, Model model)
			throws IOException {
		model.addAttribute("repoName", name);
		model.addAttribute("merged", this.branches.merged(name));
		model.addAttribute("mayPlan", mayPlan(user));
		return VIEWS_DELETE_MERGED;
	}

	/**
	 * Plans the deletion of the branches {@code HEAD}'s branch has merged (the plan keeps
	 * that branch and the protected ones), and shows the plan.
	 */
	@PostMapping("/repo/branches/merged")
	String processDeleteMerged(@RequestParam String name, @ModelAttribute("consoleUser") ConsoleUser user,
			Principal principal, RedirectAttributes redirect) throws IOException {
		requirePlanner(user);
		MergedBranches merged = this.branches.merged(name);
		if (merged.base() == null) {
			redirect.addFlashAttribute("problem", "Nothing was planned: " + merged.note());
			return back(name, redirect);
		}
		if (merged.count() == 0) {
			redirect.addFlashAttribute("problem", "Nothing was planned: no merged branch can be deleted.");
			return back(name, redirect);
		}
		return plan(name, redirect,
				() -> this.jobs.planDeletion(name, List.of("refs/heads/"), List.of(), List.of(), List.of(),
						new DeleteCriteria(List.of("refs/heads/"), merged.base(), null, null), false, null,
						principal.getName()));
	}

	/** Launches a plan and goes to its page, or back to the view saying why not. */
	private String plan(String repo, RedirectAttributes redirect, Supplier<JobSummary> launch) {
		try {
			JobSummary plan = launch.get();
			redirect.addFlashAttribute("message", "Planning the deletion: review the plan, then confirm it.");
			return "redirect:/jobs/" + plan.executionId();
		}
		catch (JobConflictException ex) {
			redirect.addFlashAttribute("problem", ConsoleFormat.busyRepository(repo, ex.executionId(), null));
			redirect.addFlashAttribute("problemJob", ex.executionId());
		}
		catch (InvalidRequestException ex) {
			redirect.addFlashAttribute("problem", "Nothing was planned: " + Redaction.paths(ex.getMessage()));
		}
		return back(repo, redirect);
	}

	/** Back to the repository's Branches view. */
	private static String back(String repo, RedirectAttributes redirect) {
		redirect.addAttribute("name", repo);
		return REDIRECT_BRANCHES;
	}

	/** Whether the user may plan deletions (OPERATOR, ADMIN). */
	static boolean mayPlan(ConsoleUser user) {
		return user.mayRun(RefJobType.DELETE, Map.of(JobParameterNames.PLAN_ONLY, "true"));
	}

	private static void requirePlanner(ConsoleUser user) {
		if (!mayPlan(user)) {
			throw new AccessDeniedException("the role " + user.role() + " may not plan deletions");
		}
	}

	private static void requireAdmin(ConsoleUser user, String what) {
		if (!user.admin()) {
			throw new AccessDeniedException("the role " + user.role() + " may not " + what);
		}
	}

}
