package io.refstore.web.schedules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

import io.refstore.batch.api.RefJobType;
import io.refstore.web.console.ConsoleFormat;
import io.refstore.web.system.InvalidRequestException;

/**
 * What the console's forms that launch jobs later (the schedule form, the campaign form)
 * share about a job's typed parameters: the fields fragment htmx swaps in as the job
 * changes ({@code fragments/jobParameters :: parameters}), the judging of every field at
 * once, each refusal beside its field ({@code values[key]}) in the words of
 * {@link ScheduleParameters}, and the summary of a refused form's errors above it. One
 * place, so that both forms word and mark a refusal alike. Stateless.
 */
public final class TypedParameters {

	/** The typed fields of a form's job, as the form shows them and htmx swaps them. */
	public static final String VIEWS_PARAMETERS = "fragments/jobParameters :: parameters";

	private TypedParameters() {
	}

	/**
	 * Readies the typed fields of the job {@code form} names (the values given kept, a
	 * new form's defaults for the rest): for a new form, and for the fragment htmx asks
	 * for as the job changes.
	 * @return the fragment's view
	 */
	public static String show(JobTargetForm form) {
		form.setParametersFor(form.getJobType());
		form.fillDefaults();
		return VIEWS_PARAMETERS;
	}

	/**
	 * Judges the typed parameters of {@code form}, marking every refused one on its field
	 * (one no field shows, or the set as a whole, above the form). A form whose job
	 * changed since its fields were shown (without htmx) is refused on {@code jobType}
	 * and shows the new job's fields to fill instead.
	 * @param again what the person does once the fields are checked ({@code save},
	 * {@code launch})
	 */
	public static void check(JobTargetForm form, BindingResult result, String again) {
		RefJobType type = form.type();
		if (type == null) {
			return;
		}
		if (form.getParametersFor() != null && !type.name().equals(form.getParametersFor())) {
			result.rejectValue("jobType", "changed",
					"Job: the parameters shown were for another job; the fields of "
							+ ConsoleFormat.jobTypeInWords(type).toLowerCase(Locale.ROOT)
							+ " are below now: check them and " + again + " again");
			show(form);
			return;
		}
		form.setParametersFor(type.name());
		for (ScheduleParameters.Problem problem : ScheduleParameters.check(type, form.parameterMap())) {
			String field = (problem.key() != null && ScheduleParameters.keys(type).contains(problem.key()))
					? "values[" + problem.key() + "]" : null;
			if (field == null) {
				result.reject("invalid", problem.message());
			}
			else if (!result.hasFieldErrors(field)) {
				result.rejectValue(field, "invalid", problem.message());
			}
		}
	}

	/**
	 * Marks a refusal of a service on its field, in words: one of the form's own fields
	 * labelled ({@code Time zone: not a time zone id}), a job parameter
	 * ({@code parameters.<key>}) on its typed field in the refusal's words, and one no
	 * field shows above the form ({@code Parameter colour: ...}). A field already marked
	 * keeps its first refusal.
	 * @param labels the form's own fields' labels, by field name
	 */
	public static void reject(BindingResult result, InvalidRequestException ex, Map<String, String> labels) {
		String parameter = (ex.parameter() != null) ? ex.parameter() : "";
		String typed = parameter.startsWith("parameters.") ? parameter.substring(11) : null;
		if (labels.containsKey(parameter)) {
			if (!result.hasFieldErrors(parameter)) {
				result.rejectValue(parameter, "invalid", labels.get(parameter) + ": " + ex.reason());
			}
		}
		else if (typed != null && result.getTarget() instanceof JobTargetForm form
				&& ScheduleParameters.keys(form.type()).contains(typed)) {
			if (!result.hasFieldErrors("values[" + typed + "]")) {
				result.rejectValue("values[" + typed + "]", "invalid", ex.reason());
			}
		}
		else {
			result.reject("invalid", ((typed != null) ? "Parameter " + typed : parameter) + ": " + ex.reason());
		}
	}

	/**
	 * One line of the summary above a refused form.
	 *
	 * @param anchor the id of the field's input, or {@code null} for the form as a whole
	 * @param message what is wrong, in words
	 */
	public record SummaryLine(String anchor, String message) {
	}

	/**
	 * Every refusal of the form bound as {@code form} in {@code model}, in its order: the
	 * whole form's first, then each field; none on a form not sent yet. A value of the
	 * wrong kind, in the binding's words ("This must be a whole number."), is named by
	 * the field's label.
	 * @param labels the form's own fields' labels, by field name
	 */
	public static List<SummaryLine> summary(Model model, Map<String, String> labels) {
		List<SummaryLine> lines = new ArrayList<>();
		if (!(model.getAttribute(BindingResult.MODEL_KEY_PREFIX + "form") instanceof BindingResult result)) {
			return lines;
		}
		for (ObjectError error : result.getGlobalErrors()) {
			lines.add(new SummaryLine(null, error.getDefaultMessage()));
		}
		for (FieldError error : result.getFieldErrors()) {
			String field = error.getField();
			boolean typed = field.startsWith("values[");
			String anchor = typed ? "param-" + field.substring(7, field.length() - 1) : field;
			String message = error.getDefaultMessage();
			if (!typed && labels.containsKey(field) && message != null && message.startsWith("This ")) {
				message = labels.get(field) + ": t" + message.substring(1);
			}
			lines.add(new SummaryLine(anchor, message));
		}
		return lines;
	}

}
