package io.refstore.batch;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import io.refstore.batch.api.JobSummary;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.api.RefJobs;

/**
 * A process for {@link JobKillIT} to kill: starts the application on the given H2 file,
 * launches one job, prints its execution id and waits to be killed.
 *
 * <p>
 * Arguments: database, repository root, instance name, job type, then {@code key=value}
 * parameters.
 */
public final class KilledJobMain {

	private KilledJobMain() {
	}

	public static void main(String[] args) throws Exception {
		var context = BatchTestApplication.start(Path.of(args[0]), Path.of(args[1]), args[2]);
		Map<String, String> parameters = new LinkedHashMap<>();
		for (int i = 4; i < args.length; i++) {
			int equals = args[i].indexOf('=');
			parameters.put(args[i].substring(0, equals), args[i].substring(equals + 1));
		}
		JobSummary launched = context.getBean(RefJobs.class).launch(RefJobType.parse(args[3]), parameters, "killed");
		System.out.println("execution " + launched.executionId());
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

}
