package io.refstore.web.schedules;

import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;
import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.system.InvalidRequestException;

/**
 * Checks, when a schedule or campaign is created, the inputs its job parameters name in
 * the repositories (a deletion plan to execute, a manifest to restore, a backup to roll
 * back to) as each launch will check them: inside the repository, reached through no
 * symbolic link, written by that repository. A schedule or campaign that would only fail
 * at its fires is refused at once. Repositories of other nodes of the fleet are checked
 * there, at launch. Thread-safe.
 */
@Component
public class StoredInputs {

	private final RefJobs jobs;

	private final FleetJobs fleet;

	StoredInputs(RefJobs jobs, FleetJobs fleet) {
		this.jobs = jobs;
		this.fleet = fleet;
	}

	/**
	 * Checks the inputs {@code parameters} name in each of {@code repositories} this node
	 * holds.
	 * @param parameters the job parameters, already checked by
	 * {@link ScheduleService#checkStored}
	 * @throws InvalidRequestException naming {@code parameters.<key>} (or {@code target}
	 * for a repository that cannot be used), and the repository in its reason
	 */
	public void check(RefJobType type, Map<String, String> parameters, List<String> repositories) {
		RefJobParameters typed = RefJobParameters.parse(type, parameters);
		if (!typed.namesInput()) {
			return;
		}
		for (String repository : repositories) {
			if (this.fleet.elsewhere(repository).isPresent()) {
				continue;
			}
			try {
				this.jobs.checkInputs(repository, typed);
			}
			catch (InvalidJobParameterException ex) {
				String field = JobParameterNames.REPOSITORY.equals(ex.parameter()) ? "target"
						: "parameters." + ex.parameter();
				throw new InvalidRequestException(field, ex.value(),
						"in repository '" + repository + "': " + ex.reason());
			}
		}
	}

}
