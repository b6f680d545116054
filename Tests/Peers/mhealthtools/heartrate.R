# The mhealthtools camera heart-rate peer: runs mhealthtools' get_heartrate (mhealthtools/, unmodified
# from Sage-Bionetworks/mhealthtools at 4340b82) on one recording by each method asked for (one R
# start for all) and prints its output with 17 significant digits, one row per channel and window.
# Usage: Rscript heartrate.R LIB IN.csv METHOD[,METHOD…] WINDOW_SECONDS OVERLAP OUT
#   LIB     an R library holding the cran/ subsets (install.sh puts them there)
#   IN.csv  columns t,red,green,blue (an empty cell is NA); "-" writes mhealthtools' own
#           heartrate_data (data/heartrate_data.rda) to OUT.input.csv and uses it
#   METHOD  acf, psd or peak
# OUT.METHOD.csv for each method: channel,window,hr,confidence, then rows sampling_rate,,VALUE, and
# error,,TEXT (the text as it is).
args <- commandArgs(trailingOnly = TRUE)
.libPaths(c(args[[1]], .libPaths()))
suppressPackageStartupMessages({ library(magrittr) })
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
for (file in list.files(file.path(here, "mhealthtools"), pattern = "[.]R$", full.names = TRUE)) source(file)
out <- args[[6]]
if (args[[2]] == "-") {
  load(file.path(here, "data", "heartrate_data.rda"))
  data <- heartrate_data
  write.csv(data.frame(lapply(data, function(v) sprintf("%.17g", v))), paste0(out, ".input.csv"), row.names = FALSE, quote = FALSE)
} else {
  data <- read.csv(args[[2]], colClasses = "numeric")
}
f <- function(v) ifelse(is.na(v), "NA", sprintf("%.17g", v))
for (method in strsplit(args[[3]], ",")[[1]]) {
  result <- get_heartrate(data, window_length = as.numeric(args[[4]]), window_overlap = as.numeric(args[[5]]), method = method)
  rows <- c("channel,window,hr,confidence")
  for (channel in c("red", "green", "blue")) {
    frame <- result[[channel]]
    if (is.data.frame(frame)) {
      for (w in seq_len(nrow(frame))) rows <- c(rows, paste(channel, w, f(frame$hr[w]), f(frame$confidence[w]), sep = ","))
    } else {
      rows <- c(rows, paste(channel, 1, "NA", "NA", sep = ","))
    }
  }
  rows <- c(rows, paste("sampling_rate", "", f(result$sampling_rate), "", sep = ","), paste("error", "", result$error, sep = ","))
  writeLines(rows, paste0(out, ".", method, ".csv"))
}
