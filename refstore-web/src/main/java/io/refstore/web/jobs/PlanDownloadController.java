package io.refstore.web.jobs;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import io.refstore.core.delete.DeletionPlan;
import io.refstore.web.console.ConsoleController;

/**
 * A deletion plan's whole list, not its ten samples: {@code GET /jobs/{id}/plan.csv}
 * streams every ref the plan selected with the value it had ({@code ref,value}, RFC 4180
 * quoting, a symbolic ref's value as {@code ref: <target>}), read from the plan file in
 * the repository (never from memory whole: a plan may hold a million refs). For VIEWER
 * and above, as the plan's page. A plan kept on another node of the fleet, or gone, is a
 * 404 saying so ({@link PlanFiles}).
 */
@ConsoleController
class PlanDownloadController {

	private final PlanFiles plans;

	PlanDownloadController(PlanFiles plans) {
		this.plans = plans;
	}

	@GetMapping("/jobs/{id}/plan.csv")
	ResponseEntity<StreamingResponseBody> downloadPlan(@PathVariable long id) throws IOException {
		Path file = this.plans.of(id).file();
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

	/** A CSV field: quoted when it holds a comma, a quote or a line break. */
	static String csv(String field) {
		if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
			return field;
		}
		return '"' + field.replace("\"", "\"\"") + '"';
	}

}
