package io.refstore.web.jobs;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import io.refstore.batch.api.JobResults;
import io.refstore.batch.api.JobSummary;
import io.refstore.core.delete.DeletionPlan;
import io.refstore.web.console.ConsoleController;
import io.refstore.web.repos.OpenRepo;
import io.refstore.web.repos.RepoRegistry;

/**
 * A deletion plan's whole list, not its ten samples: {@code GET /jobs/{id}/plan.csv}
 * streams every ref the plan selected with the value it had ({@code ref,value}, RFC 4180
 * quoting, a symbolic ref's value as {@code ref: <target>}), read from the plan file in
 * the repository (never from memory whole: a plan may hold a million refs). For VIEWER
 * and above, as the plan's page. A plan kept on another node of the fleet, or gone, is a
 * 404 saying so.
 */
@ConsoleController
class PlanDownloadController {

	private final JobService jobs;

	private final RepoRegistry repos;

	PlanDownloadController(JobService jobs, RepoRegistry repos) {
		this.jobs = jobs;
		this.repos = repos;
	}

	@GetMapping("/jobs/{id}/plan.csv")
	ResponseEntity<StreamingResponseBody> downloadPlan(@PathVariable long id) throws IOException {
		JobSummary plan = this.jobs.completedPlan(id);
		Path file = planFile(plan);
		String name = "plan-" + id + ".csv";
		StreamingResponseBody body = (out) -> {
			Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
			writer.write("ref,value\r\n");
			try (DeletionPlan.Reader reader = new DeletionPlan.Reader(file, null)) {
				for (DeletionPlan.Entry entry = reader.next(); entry != null; entry = reader.next()) {
					writer.write(csv(entry.name()));
					writer.write(',');
					writer.write(csv(entry.value()));
					writer.write("\r\n");
				}
			}
			writer.flush();
		};
		return ResponseEntity.ok()
			.contentType(new MediaType("text", "csv", StandardCharsets.UTF_8))
			.header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(name).build().toString())
			.body(body);
	}

	/**
	 * The plan's file, if this node holds it: inside the repository's
	 * {@value JobResults#PLANS_DIR}, not a link.
	 */
	private Path planFile(JobSummary plan) throws IOException {
		Path file = Path.of(plan.results().get(JobResults.PLAN_PATH));
		if (this.repos.holds(plan.repository())) {
			try (OpenRepo open = this.repos.open(plan.repository())) {
				Path plans = open.repository().gitDir().resolve(JobResults.PLANS_DIR);
				if (file.normalize().startsWith(plans) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
					return file;
				}
			}
		}
		throw new ErrorResponseException(HttpStatus.NOT_FOUND,
				ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
						"The plan of job " + plan.executionId() + " is not kept on this node: it was removed, or its"
								+ " repository is on another node of the fleet."),
				null);
	}

	/** A CSV field: quoted when it holds a comma, a quote or a line break. */
	static String csv(String field) {
		if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
			return field;
		}
		return '"' + field.replace("\"", "\"\"") + '"';
	}

}
