// OCR look-alikes of letters in Latin-script names. OCR of a thermal receipt reads the O of "BOOK" as 0, the B as
// 8, the S of "SDN" as 5 and the I of "WAITROSE" as 1 (train/synth_noise.py models the same confusions), and drops
// a letter of the company suffix SDN BHD ("SDN BD", "SD BHD") or a bracket of "(M)". A name copied from the print
// carries the damage; these read it back where the word around it says what the letter was.
#pragma once

#include <string>

namespace receipt::extract {

// `s` with digit look-alikes inside words read as letters. A word here is a run of ASCII letters and digits of at
// least 3 characters with at least 2 letters, at least as many letters as digits (as many only when they alternate:
// "8O0K", not "KL08"), and no digit but 0, 1, 5 and 8 (so "CT281", "OLIVE9", "99" and "SS2" stay); ordinals ("1ST",
// "23RD") stay too. In an upper-case word 0 -> O, 1 -> I, 5 -> S, 8 -> B ("P0PULAR", "8OOK", "5DN", "BAKERIE5"); in a
// lower-case one (an upper-case first letter allowed) 0 -> o, 1 -> l ("Wa1greens"), and a first 0, 5 or 8 is the
// capital O, S or B ("0ak", "8oots"). Other text is unchanged.
std::string read_letter_confusions(const std::string& s);

// A Latin-script item description as printed, read: a count OCR left in front of it ("1x ", "Ix ", "lx ", "x "
// that lost its digit, or "1x" that lost its space before three capitals: "1xTISSUE") goes, and so do a count and
// unit price OCR joined to its end ("BATTERY AA 4S 1 X 7.80"), and a digit look-alike between two letters of a word ("C0UPON") is read as above. Digits at a word's edge stay
// ("SPF50", "1KG", "5S"), and so does one before a unit that ends the word ("SP5KG"). At a word's edge, an 8 or 0
// before four or more capitals is B or O ("8ANANAS"), an I, l or Z before the digits of a count and unit is 1 or 2
// ("I0S" for 10S), and a Z alone before "%" is 2 ("MILK Z% GAL").
std::string latin_item_description_read(const std::string& s);

// A Latin company name `s` with its damaged parts of a company suffix and its registration bracket repaired:
//   * "SDN BD", "SDN BH", "SD BHD", "SN BHD", "DN BHD" (one letter lost from SDN BHD, upper case, after a word) ->
//     "SDN BHD";
//   * "(M SDN BHD" -> "(M) SDN BHD" and "CO. M) SDN BHD" -> "CO. (M) SDN BHD": a one- to three-letter bracket
//     ("(M)", "(KL)") right before the suffix that lost one of its brackets;
//   * "CO,", "C0." or "C0," before a bracket or at the end -> "CO." ("AEON CO, (M) BHD"; no SROIE company name has
//     a comma).
// Other text is unchanged.
std::string repaired_company_suffix(const std::string& s);

}  // namespace receipt::extract
